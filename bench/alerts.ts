/**
 * Alerts at scale: 1,000 alerts of every kind on 100 API keys (ten a key, in a different mix on each; a quick run
 * sets 200 on 20 keys), checked by the alert worker as the service runs it, against the sandbox (at the API's real
 * limit, 120 requests a minute a key) and a fake Slack Web API, each in a process of its own, on the embedded store
 * (PGlite) and on PostgreSQL (BENCH_DATABASE_URL or TEST_DATABASE_URL, in a fresh schema dropped afterwards). The
 * store and the worker run in a process of their own (bench/alert-run.ts), a new one for each store.
 *
 * Every key is checked twice: a first check, quiet, that records what is true; then the sandbox's data changes
 * (a cart closed short, a signal raised, a ticket opened, an invoice overdue, an order spent, all at one customer)
 * and the second check, a poll later, tells what became true. Figures of each check: the Linen API requests per
 * key counted at the sandbox, against what the key's alerts need (the distinct listings their kinds declare, with
 * their pages), and the CPU time of the checking process per key (and per alert); of the run: the messages
 * delivered against the alerts the changes wake, and the process's peak resident memory.
 */
import { fileURLToPath, pathToFileURL } from 'node:url';
import { ALERT_TODAY, type AlertRunResult, type AlertRunSpec, type CheckFigures } from './alert-run.ts';
import { bundleRun, runInChild } from './bundled-run.ts';
import { startFakeSlackProcess } from './fake-slack-process.ts';
import { Results, ratioOf, round } from './results.ts';
import { startSandboxProcess } from './sandbox-process.ts';
import { benchStores, dropSchema, freshSchema, storeName } from './stores.ts';

const TZ = 'America/Chicago';
const ALERT_RUN = fileURLToPath(new URL('./alert-run.ts', import.meta.url));
const ALERTS_PER_KEY = 10;
/** Keys of a full run (1,000 alerts), and of a quick one (200: the same mix on fewer keys). */
const FULL_KEYS = 100;
const QUICK_KEYS = 20;
const REFERENCE_KEY = 'lk_live_demo_all_access';

const sum = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0);

/** One run on one store: a sandbox and a fake Slack of its own, the checks in a fresh process. */
async function runOn(
  bundle: string,
  url: string | undefined,
  keyCount: number,
): Promise<AlertRunResult & { postsByChannel: Map<string, number> }> {
  const keys = Array.from({ length: keyCount }, (_, i) => `lk_live_bench_alerts_${String(i).padStart(3, '0')}`);
  const sandbox = await startSandboxProcess({
    today: ALERT_TODAY,
    timeZone: TZ,
    rateLimit: { limit: 120, windowMs: 60_000 },
    extraKeys: keys,
  });
  const slack = await startFakeSlackProcess();
  const schema = freshSchema('alert_bench');
  try {
    const run = await runInChild<AlertRunResult>(
      bundle,
      {
        keys,
        alertsPerKey: ALERTS_PER_KEY,
        sandboxUrl: sandbox.baseUrl,
        slackUrl: slack.url,
        referenceKey: REFERENCE_KEY,
        ...(url ? { databaseUrl: url, schema } : {}),
      } satisfies AlertRunSpec,
      'alert run',
    );
    return { ...run, postsByChannel: await slack.postsByChannel() };
  } finally {
    await Promise.all([sandbox.close(), slack.close()]);
    if (url) await dropSchema(url, schema);
  }
}

function checkFigures(
  results: Results,
  c: CheckFigures,
  o: { id: string; on: string; which: string; alerts: number },
): void {
  const keys = c.requests.length;
  const counted = sum(c.requests);
  const expected = sum(c.expected);
  const over = c.requests.filter((r, k) => r > c.expected[k]!).length;
  const exact = c.requests.filter((r, k) => r === c.expected[k]).length;
  const perKey = round(c.sandboxRequests / keys, 2);
  const baseline = round(expected / keys, 2);
  results.add({
    id: `alerts.requests_per_key.${o.id}`,
    label: `Alerts: ${o.on}: ${o.which}: Linen API requests per key, counted at the sandbox (the checks counted ${counted}, the sandbox ${c.sandboxRequests}; ${exact} of ${keys} keys exactly what their alerts need, ${over} over, most on one key ${Math.max(...c.requests)}; ${c.throttled} answered 429); baseline: what each key's alerts need, the distinct listings their kinds declare with every page (${c.extraPages} pages past the first)`,
    value: perKey,
    unit: 'requests',
    baseline,
    ratio: ratioOf(c.sandboxRequests, expected),
    target: '<= what its alerts need, on every key',
    met: over === 0 && c.sandboxRequests === counted && c.throttled === 0,
  });
  results.add({
    id: `alerts.cpu_ms_per_key.${o.id}`,
    label: `Alerts: ${o.on}: ${o.which}: CPU time of the checking process per key (${round(c.cpuMs / o.alerts, 2)} ms per alert; ${round(c.elapsedMs / 1000, 2)} s for the ${keys} keys in ${c.ticks} ticks; ${c.outcomes}): reading, evaluating, the store's writes${c.posts ? ', building and posting the messages' : ''}; the sandbox and the fake Slack run in processes of their own`,
    value: round(c.cpuMs / keys, 2),
    unit: 'ms',
  });
}

export async function benchAlerts(results: Results, options: { quick?: boolean } = {}): Promise<void> {
  const keyCount = options.quick ? QUICK_KEYS : FULL_KEYS;
  const bundle = await bundleRun(ALERT_RUN, 'alert-run');
  try {
    for (const [driver, db] of benchStores()) {
      const r = await runOn(bundle.file, db, keyCount);
      const suffix = `${r.alerts}${driver === 'pg' ? '.pg' : ''}`;
      const kinds = Object.entries(r.byKind)
        .map(([k, v]) => `${v} ${k}`)
        .join(', ');
      const on = `${r.alerts.toLocaleString('en-US')} alerts (${kinds}) on ${keyCount} keys${options.quick ? ' (a quick run: 1,000 on 100 keys in a full one)' : ''}, ${storeName(driver)}`;
      const [first, second] = r.checks as [CheckFigures, CheckFigures];
      checkFigures(results, first, { id: `first.${suffix}`, on, which: 'first check (quiet)', alerts: r.alerts });
      checkFigures(results, second, {
        id: `second.${suffix}`,
        on,
        which: `second check, after ${r.changes.join(', ')} at one customer`,
        alerts: r.alerts,
      });
      const expected = new Set(r.expectedChannels);
      const delivered = sum([...r.postsByChannel.values()]);
      const missing = [...expected].filter((ch) => !r.postsByChannel.has(ch)).length;
      const unexpected = [...r.postsByChannel.keys()].filter((ch) => !expected.has(ch)).length;
      const twice = [...r.postsByChannel.values()].filter((v) => v > 1).length;
      results.add({
        id: `alerts.messages.${suffix}`,
        label: `Alerts: ${on}: messages delivered to Slack; target: one for each alert the changes wake (${second.told} occurrences told, one expected for each; ${first.posts} posted by the quiet first check; ${missing} alerts not told, ${unexpected} told that should not be, ${twice} told twice)`,
        value: delivered,
        unit: 'messages',
        target: `${expected.size}`,
        met:
          delivered === expected.size &&
          missing === 0 &&
          unexpected === 0 &&
          twice === 0 &&
          second.told === expected.size &&
          first.posts === 0,
      });
      const peak = round(r.peakMb, 0);
      results.add({
        id: `alerts.peak_rss_mb.${suffix}`,
        label: `Alerts: ${on}: peak resident memory of the checking process during the two checks (the store and the alert worker alone, bundled, in a process of its own; ${round(r.beforeMb, 0)} MiB before them; JavaScript heap at most ${round(r.heapPeakMb, 0)} MiB)`,
        value: peak,
        unit: 'MiB',
      });
    }
  } finally {
    bundle.remove();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  await benchAlerts(new Results(), { quick: process.argv.includes('--quick') });
  process.exit(0);
}
