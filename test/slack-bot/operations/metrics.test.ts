/**
 * `GET /metrics` of the running bot: the counters move by what happened (commands, a refusal, an API fault, a
 * digest), nothing secret or identifying appears in it, and the serving rules (METRICS_PORT, METRICS_TOKEN) hold.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../chat/digests/clock.ts';
import { ConfigError, loadMetricsConfig } from '../../../service/config.ts';
import {
  allText,
  BOT_TOKEN,
  type BotUnderTest,
  type Harness,
  SIGNING_SECRET,
  startHarness,
} from '../../support/slack-harness.ts';

const TOKEN = 'metrics-token-0123456789abcdef';
const OPS = 'C0OPS0001';

/** Each sample of the text format as `name{labels}` → value. */
function samples(text: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const line of text.split('\n')) {
    if (!line || line.startsWith('#')) continue;
    const at = line.lastIndexOf(' ');
    out.set(line.slice(0, at), Number(line.slice(at + 1)));
  }
  return out;
}

/** The sum of the samples of `name` whose labels include every one of `labels`. */
function total(text: string, name: string, labels: Record<string, string> = {}): number {
  let sum = 0;
  for (const [series, value] of samples(text)) {
    const brace = series.indexOf('{');
    const metric = brace < 0 ? series : series.slice(0, brace);
    if (metric !== name) continue;
    if (Object.entries(labels).every(([k, v]) => series.includes(`${k}="${v}"`))) sum += value;
  }
  return sum;
}

const PROMQL_WORDS = new Set([
  'by',
  'without',
  'on',
  'ignoring',
  'group_left',
  'group_right',
  'bool',
  'and',
  'or',
  'unless',
  'offset',
]);

/**
 * The metric names a PromQL expression reads: identifiers that are neither functions (followed by `(`), keywords,
 * label names (inside `{}` or a `by (...)` list) nor part of a string or a range (`[5m]`).
 */
function metricNamesOf(expr: string): string[] {
  const bare = expr
    .replace(/"(?:[^"\\]|\\.)*"/g, '""')
    .replace(/\{[^}]*\}/g, '')
    .replace(/\[[^\]]*\]/g, '')
    .replace(/\b(by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/g, '');
  const names: string[] = [];
  for (const m of bare.matchAll(/[a-zA-Z_:][a-zA-Z0-9_:]*/g)) {
    const after = bare.slice(m.index + m[0].length).trimStart();
    if (after.startsWith('(') || PROMQL_WORDS.has(m[0])) continue;
    names.push(m[0]);
  }
  return names;
}

/** Every PromQL expression of the dashboard (its targets) and of the alert rules (`expr: |` blocks or lines). */
function docExpressions(): string[] {
  const dashboard = JSON.parse(readFileSync('docs/operations/grafana-dashboard.json', 'utf8')) as {
    panels: { targets: { expr: string }[] }[];
  };
  const fromDashboard = dashboard.panels.flatMap((p) => p.targets.map((t) => t.expr));
  const rules = readFileSync('docs/operations/alerts.yml', 'utf8').split('\n');
  const fromRules: string[] = [];
  for (let i = 0; i < rules.length; i++) {
    const m = /^(\s*)expr:\s*(.*)$/.exec(rules[i]!);
    if (!m) continue;
    if (m[2] !== '|') {
      fromRules.push(m[2]!);
      continue;
    }
    const block: string[] = [];
    while (i + 1 < rules.length && (rules[i + 1]!.trim() === '' || rules[i + 1]!.search(/\S/) > m[1]!.length))
      block.push(rules[++i]!);
    fromRules.push(block.join('\n'));
  }
  expect(fromRules).toHaveLength(3);
  return [...fromDashboard, ...fromRules];
}

const botPortUrl = (b: BotUnderTest) => `http://127.0.0.1:${b.bot.port}/metrics`;

async function scrape(b: BotUnderTest, token = TOKEN): Promise<string> {
  const res = await fetch(botPortUrl(b), { headers: { authorization: `Bearer ${token}` } });
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
  return res.text();
}

describe('GET /metrics', () => {
  let h: Harness;
  let bot: BotUnderTest;
  // The commands run on the real clock (the bot builds its own clients): so does the worker's, until moved.
  const clock = new ManualClock(Date.now());

  beforeAll(async () => {
    h = await startHarness();
    bot = await h.startBotWith(
      { METRICS_TOKEN: TOKEN, LINEN_ADMIN_USER_IDS: 'U0ADMIN' },
      { ownClients: true, start: { digests: { clock, tickMs: 3_600_000, pacingMs: 0 } } },
    );
    h.slack.channels.set(OPS, { name: 'linen-ops', member: true });
  });
  afterAll(async () => {
    await h?.close();
  });

  it('counts commands by command and outcome, with the time to the answer and the API requests', async () => {
    const before = await scrape(bot);
    await bot.ask('help');
    await bot.ask('fillrate');
    await bot.ask('signals');
    const after = await scrape(bot);
    const moved = (name: string, labels: Record<string, string>) =>
      total(after, name, labels) - total(before, name, labels);
    expect(moved('linen_commands_total', { platform: 'slack', command: 'help', outcome: 'answered' })).toBe(1);
    // Usage (fillrate needs a customer) is an answer too.
    expect(moved('linen_commands_total', { command: 'usage', outcome: 'answered' })).toBe(1);
    expect(moved('linen_commands_total', { command: 'signals', outcome: 'answered' })).toBe(1);
    expect(moved('linen_commands_total', {})).toBe(3);
    expect(moved('linen_answer_seconds_count', { via: 'command' })).toBe(3);
    expect(moved('linen_api_requests_total', { endpoint: 'GET /inventory/signals', status: '200' })).toBe(1);
    // Every window of a key's pacing was far from full.
    expect(moved('linen_pacing_window_use_ratio_count', {})).toBeGreaterThanOrEqual(1);
    expect(total(after, 'linen_pacing_window_use_ratio_bucket', { le: '0.25' })).toBe(
      total(after, 'linen_pacing_window_use_ratio_count'),
    );

    // The same question again within 15 s is answered from the kept answer.
    await bot.ask('signals');
    const again = await scrape(bot);
    expect(total(again, 'linen_api_cache_hits_total', { endpoint: 'GET /inventory/signals' })).toBeGreaterThanOrEqual(
      1,
    );
    expect(total(again, 'linen_api_requests_total', { endpoint: 'GET /inventory/signals' })).toBe(
      total(after, 'linen_api_requests_total', { endpoint: 'GET /inventory/signals' }),
    );
  });

  it('counts a command refused for want of access as refused', async () => {
    const opsOnly = await h.startBotWith(
      { METRICS_TOKEN: TOKEN, LINEN_API_KEY: 'lk_live_demo_mercy_ops' },
      { ownClients: true, start: { digests: { worker: false } } },
    );
    const answer = await opsOnly.ask('balance');
    expect(allText(answer)).toMatch(/no .*access/i);
    const text = await scrape(opsOnly);
    expect(total(text, 'linen_commands_total', { command: 'balance', outcome: 'refused' })).toBe(1);
    expect(total(text, 'linen_api_requests_total', { endpoint: 'GET /balance', status: '403' })).toBe(1);
    // Another bot's registry is its own.
    expect(total(await scrape(bot), 'linen_commands_total', { command: 'balance' })).toBe(0);
    await opsOnly.stop();
  });

  it('counts an API fault by status, and the command as an error', async () => {
    const before = await scrape(bot);
    // The interactive client tries twice (one retry): both are answered 500.
    h.sandbox.faults.enqueue({ kind: '500', count: 2 });
    const answer = await bot.ask('tickets');
    expect(allText(answer)).toContain('The Linen API is having trouble right now');
    const after = await scrape(bot);
    const moved = (name: string, labels: Record<string, string>) =>
      total(after, name, labels) - total(before, name, labels);
    expect(moved('linen_api_requests_total', { status: '500' })).toBe(2);
    expect(moved('linen_commands_total', { command: 'tickets', outcome: 'error' })).toBe(1);
    expect(moved('linen_api_rate_limited_total', {})).toBe(0);
  });

  it('counts a digest run by kind and outcome, with how late it went out', async () => {
    const sub = await bot.ask('digest subscribe #linen-ops daily 06:30', { userId: 'U0ADMIN', channelId: OPS });
    const id = /`(d\w+)`/.exec(allText(sub))![1]!;
    const next = (await bot.bot.digests.store.getSubscription(id))!.nextRunAt!;
    const before = await scrape(bot);
    // The run's minute, 20 s past it.
    clock.set(next.getTime() + 20_000);
    await bot.bot.digests.worker!.tick();
    const after = await scrape(bot);
    const moved = (name: string, labels: Record<string, string>) =>
      total(after, name, labels) - total(before, name, labels);
    expect(moved('linen_digest_runs_total', { platform: 'slack', kind: 'shortfall', outcome: 'posted' })).toBe(1);
    expect(moved('linen_digest_lateness_seconds_count', { kind: 'shortfall' })).toBe(1);
    expect(moved('linen_digest_lateness_seconds_bucket', { kind: 'shortfall', le: '15' })).toBe(0);
    expect(moved('linen_digest_lateness_seconds_bucket', { kind: 'shortfall', le: '30' })).toBe(1);
    expect(total(after, 'linen_digest_subscriptions', { status: 'active' })).toBeGreaterThanOrEqual(1);
    expect(total(after, 'linen_store_errors_total')).toBe(0);
  });

  it('exports every metric the dashboard and the alerts read', async () => {
    const exported = new Set<string>();
    for (const m of await bot.bot.metrics.registry.getMetricsAsJSON()) {
      if (String(m.type) === 'histogram') for (const s of ['_bucket', '_sum', '_count']) exported.add(m.name + s);
      else exported.add(m.name);
    }
    const read = docExpressions().flatMap(metricNamesOf);
    expect(read.length).toBeGreaterThan(20);
    expect(read.filter((n) => !exported.has(n))).toEqual([]);
    expect(metricNamesOf('sum by (le) (rate(a_bucket{le="1"}[5m])) / on (x) group_left b or max(c) > 300')).toEqual([
      'a_bucket',
      'b',
      'c',
    ]);
  });

  it('names no key, token, customer, team or channel', async () => {
    const text = await scrape(bot);
    const secrets = [BOT_TOKEN, SIGNING_SECRET, TOKEN, ...h.sandbox.data.keys.map((k) => k.secret)];
    for (const s of secrets) expect(text).not.toContain(s);
    for (const c of h.sandbox.data.customers) expect(text).not.toContain(c.name);
    for (const id of ['T0LINEN', OPS, 'U0ADMIN', 'key_']) expect(text).not.toContain(id);
    expect(text).not.toMatch(/cus_|inv_|lk_live/);
  });
});

describe('where /metrics is served', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => {
    await h?.close();
  });
  const noWorker = { start: { digests: { worker: false } } };

  it("on the bot's port only with the bearer token", async () => {
    const b = await h.startBotWith({ METRICS_TOKEN: TOKEN }, noWorker);
    expect((await fetch(botPortUrl(b))).status).toBe(401);
    const wrong = await fetch(botPortUrl(b), { headers: { authorization: `Bearer ${TOKEN.slice(0, -1)}x` } });
    expect(wrong.status).toBe(401);
    expect(wrong.headers.get('www-authenticate')).toMatch(/^Bearer/);
    expect((await fetch(botPortUrl(b), { headers: { authorization: `Basic ${TOKEN}` } })).status).toBe(401);
    expect(await scrape(b)).toContain('linen_commands_total');
    await b.stop();
  });

  it("not at all on the bot's port without a token", async () => {
    const b = await h.startBotWith({}, noWorker);
    expect((await fetch(botPortUrl(b))).status).toBe(404);
    expect((await fetch(botPortUrl(b), { headers: { authorization: `Bearer ${TOKEN}` } })).status).toBe(404);
    await b.stop();
  });

  it('on METRICS_PORT at 127.0.0.1 by default, and then not on the bot port', async () => {
    const b = await h.startBotWith({ METRICS_PORT: '0', METRICS_TOKEN: TOKEN }, noWorker);
    expect(b.bot.metricsPort).toBeGreaterThan(0);
    expect(b.logs.some((l) => l.includes(`GET /metrics on port ${b.bot.metricsPort} (127.0.0.1)`))).toBe(true);
    const own = `http://127.0.0.1:${b.bot.metricsPort}/metrics`;
    expect((await fetch(own)).status).toBe(401);
    const ok = await fetch(own, { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(ok.status).toBe(200);
    expect(await ok.text()).toContain('process_cpu_seconds_total');
    expect((await fetch(`http://127.0.0.1:${b.bot.metricsPort}/healthz`)).status).toBe(404);
    expect((await fetch(botPortUrl(b), { headers: { authorization: `Bearer ${TOKEN}` } })).status).toBe(404);
    await b.stop();
  });

  it('on METRICS_PORT without a token: open to whoever reaches that address', async () => {
    const b = await h.startBotWith({ METRICS_PORT: '0' }, noWorker);
    expect((await fetch(`http://127.0.0.1:${b.bot.metricsPort}/metrics`)).status).toBe(200);
    await b.stop();
  });
});

describe('metrics settings', () => {
  const load = (env: Record<string, string>) => loadMetricsConfig(env, 3000);
  it('default to nothing on a port of its own, bound to 127.0.0.1 when given one', () => {
    expect(load({})).toEqual({ port: undefined, host: '127.0.0.1', token: undefined });
    expect(load({ METRICS_PORT: '9464', METRICS_BIND_ADDRESS: '0.0.0.0' })).toEqual({
      port: 9464,
      host: '0.0.0.0',
      token: undefined,
    });
  });
  it.each([
    [{ METRICS_PORT: 'nine' }, 'METRICS_PORT must be an integer from 0 to 65535 (got "nine").'],
    [{ METRICS_PORT: '3000' }, 'METRICS_PORT must differ from PORT (both 3000)'],
    [{ METRICS_BIND_ADDRESS: '127.0.0.1' }, 'METRICS_BIND_ADDRESS is where METRICS_PORT listens'],
    [{ METRICS_PORT: '9464', METRICS_BIND_ADDRESS: 'localhost' }, 'METRICS_BIND_ADDRESS must be an IP address'],
    [{ METRICS_TOKEN: 'short' }, 'METRICS_TOKEN must be at least 16 characters'],
    [{ METRICS_TOKEN: 'a token with spaces in it' }, 'METRICS_TOKEN contains spaces'],
  ])('refuse %j with one sentence', (env, sentence) => {
    expect(() => load(env)).toThrow(ConfigError);
    expect(() => load(env)).toThrow(sentence);
  });
});
