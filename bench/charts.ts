/**
 * What charts and tables cost an answer: the CPU time of `/linen fillrate` and `/linen balance` answers with their
 * charts and tables against the same answers without them, rendered for Slack (Block Kit) and for Teams (an
 * Adaptive Card). The answers have no switch that leaves charts out, so the answer without them is the same content
 * with each chart part taken out and each table part replaced by its lines (the rows written as text, as answers
 * wrote them before tables), taken out after the view built it: the view's cost of building the chart and table
 * objects stays in the baseline.
 *
 * Two figures an answer and platform, each the fastest batch of many, the batches with and without charts
 * alternating in one process so that both see the same machine:
 * - the rendering: the view built from the report and rendered, the part charts and tables change;
 * - the whole answer: that, plus what comes before it and is the same with charts or without, the API's answers
 *   (recorded once from the sandbox and replayed from memory) decoded and checked by the client and the report
 *   computed, measured on its own: everything the bot does for the answer but its HTTP.
 * The share button under the answer is added as the bot adds it. The time to the answer over the Slack HTTP path,
 * charts included, is `slack.answer_overhead.fillrate` and `.balance` (bench/slack.ts).
 */
import { pathToFileURL } from 'node:url';
import type { Content, Part } from '../chat/content/document.ts';
import { balanceView } from '../chat/views/balance.ts';
import { shareFooter } from '../chat/views/common.ts';
import { fillRateView } from '../chat/views/fillrate.ts';
import { lastCompleteDays } from '../shared/dates.ts';
import type { AsyncTransport, HttpResponse } from '../shared/index.ts';
import { createLinenClient, type LinenClient, UndiciTransport } from '../shared/node.ts';
import { toSlackMessage } from '../slack-bot/blocks/render.ts';
import { toAdaptiveCard } from '../teams-bot/cards/render.ts';
import { Results, ratioOf, round } from './results.ts';
import { startSandboxProcess } from './sandbox-process.ts';

const KEY = 'lk_live_demo_all_access';
const TODAY = '2026-11-05';
const TZ = 'America/Chicago';
const NOW = new Date(`${TODAY}T18:00:00Z`);
/** The most the time to an answer with its charts and tables may be over the same answer's without them. */
const TARGET_RATIO = 1.1;

const PLATFORMS = {
  slack: { name: 'Slack Block Kit', render: (c: Content): unknown => toSlackMessage(c) },
  teams: { name: 'Teams Adaptive Card', render: (c: Content): unknown => toAdaptiveCard(c) },
} as const;
type Platform = keyof typeof PLATFORMS;

/** The answer's content with its charts taken out and its tables as their lines. */
function withoutCharts(content: Content): Content {
  const parts = content.parts.flatMap((p): readonly Part[] =>
    p.kind === 'chart' ? [] : p.kind === 'table' ? p.lines : [p],
  );
  return { ...content, parts };
}

/** The API's answers recorded once (through a real transport), then replayed from memory by URL. */
function replayingTransport(): { transport: AsyncTransport; replay(): void } {
  const real = new UndiciTransport();
  const kept = new Map<string, HttpResponse>();
  let replaying = false;
  return {
    transport: {
      async request(req, opts) {
        if (replaying) {
          const res = kept.get(req.url);
          if (!res) throw new Error(`no recorded answer for ${new URL(req.url).pathname}`);
          return { ...res, headers: { ...res.headers } };
        }
        const res = await real.request(req, opts);
        kept.set(req.url, res);
        return res;
      },
      close: () => real.close(),
    },
    replay: () => {
      replaying = true;
    },
  };
}

interface Answer {
  /** The command as typed. */
  command: string;
  /** The report from the API's answers (through the client). */
  report(client: LinenClient): Promise<unknown>;
  view(report: unknown): Content;
}

async function answers(client: LinenClient): Promise<Record<string, Answer>> {
  const customers = await client.customers.list().all();
  const idOf = (name: string) => customers.find((c) => c.name === name)!.id;
  const fillrate = (name: string, days: number): Answer => {
    const window = lastCompleteDays(days, TZ, NOW);
    return {
      command: `fillrate ${name}${days === 7 ? '' : ` ${days}`}`,
      report: (c) => c.reports.fillRate({ customerId: idOf(name), from: window.from, to: window.to }),
      view: (r) => fillRateView(r as Parameters<typeof fillRateView>[0], { customerName: name }),
    };
  };
  return {
    fillrate: fillrate('Harborview Hotel', 7),
    'fillrate.30_days': fillrate('Mercy General Hospital', 30),
    balance: {
      command: 'balance',
      report: (c) => c.reports.accountsReceivable({}),
      view: (r) => balanceView(r as Parameters<typeof balanceView>[0], { timeZone: TZ, now: NOW }),
    },
  };
}

/** CPU time of one run of `work`, in µs, over a batch of `n` runs. */
async function cpuPerRun(work: () => unknown, n: number): Promise<number> {
  const before = process.cpuUsage();
  for (let i = 0; i < n; i++) await work();
  const used = process.cpuUsage(before);
  return (used.user + used.system) / n;
}

/**
 * The CPU time of one run in the fastest of `batches` batches: the work is the same in every batch, so what makes
 * one slower is the machine's other work (it is shared), which the fastest sees least.
 */
async function fastest(work: () => unknown, o: { batches: number; runs: number }): Promise<number> {
  await cpuPerRun(work, o.runs);
  let best = Infinity;
  for (let k = 0; k < o.batches; k++) best = Math.min(best, await cpuPerRun(work, o.runs));
  return best;
}

/** Each side's CPU time per run in its fastest batch, batches of the two alternating: both see the same machine. */
async function sideBySide(
  withCharts: () => unknown,
  without: () => unknown,
  o: { batches: number; runs: number },
): Promise<{ with: number; without: number }> {
  // Warm-up: the JIT compiles both paths before anything is counted.
  await cpuPerRun(withCharts, o.runs);
  await cpuPerRun(without, o.runs);
  const a: number[] = [];
  const b: number[] = [];
  for (let k = 0; k < o.batches; k++) {
    a.push(await cpuPerRun(withCharts, o.runs));
    b.push(await cpuPerRun(without, o.runs));
  }
  return { with: Math.min(...a), without: Math.min(...b) };
}

export async function benchCharts(results: Results, options: { quick?: boolean } = {}): Promise<void> {
  const sizes = options.quick ? { batches: 40, runs: 5 } : { batches: 150, runs: 5 };
  const sandbox = await startSandboxProcess({
    today: TODAY,
    timeZone: TZ,
    rateLimit: { limit: 1e9, windowMs: 60_000 },
  });
  const recording = replayingTransport();
  const client = createLinenClient({
    apiKey: KEY,
    baseUrl: sandbox.baseUrl,
    timeZone: TZ,
    transport: recording.transport,
    pacing: false,
    now: () => NOW.getTime(),
  });
  try {
    const all = await answers(client);
    // Every request of every answer recorded, then the sandbox is no longer asked.
    const reports = new Map<string, unknown>();
    for (const [name, a] of Object.entries(all)) reports.set(name, await a.report(client));
    recording.replay();
    const runs = `the fastest of ${sizes.batches} batches of ${sizes.runs}`;
    for (const [name, a] of Object.entries(all)) {
      const footer = shareFooter(a.command);
      const content = (report: unknown): Content => {
        const c = a.view(report);
        return { ...c, parts: [...c.parts, footer] };
      };
      const report = reports.get(name);
      // What comes before the view, the same with charts or without: the API's answers to the report.
      const reading = await fastest(() => a.report(client), sizes);
      for (const [platform, p] of Object.entries(PLATFORMS) as [Platform, (typeof PLATFORMS)[Platform]][]) {
        const drawn = (p.render(content(report)) as { blocks?: unknown[] }).blocks?.length;
        const rendering = await sideBySide(
          () => p.render(content(report)),
          () => p.render(withoutCharts(content(report))),
          sizes,
        );
        const what = `/linen ${a.command} as a ${p.name}${drawn !== undefined ? ` (${drawn} blocks)` : ''}`;
        const answer = { with: reading + rendering.with, without: reading + rendering.without };
        for (const [measure, m, words] of [
          [
            'answer',
            answer,
            `the whole answer: the API's answers (replayed from memory) decoded and the report computed (${round(reading, 0)} µs, the same with charts or without), then the answer built and rendered`,
          ],
          ['render', rendering, 'the answer built from its report and rendered'],
        ] as const) {
          const ratio = ratioOf(m.with, m.without);
          results.add({
            id: `charts.${measure}_cpu_us.${name}.${platform}`,
            label: `Charts: ${what}: CPU time of ${words}, with its charts and tables (${runs}); baseline: the same content with its charts taken out and its tables as their lines`,
            value: round(m.with, 0),
            unit: 'µs',
            baseline: round(m.without, 0),
            ratio,
          });
        }
      }
    }
  } finally {
    await client.close();
    await sandbox.close();
  }
}

/**
 * The charts' share of the Slack answer's overhead: `slack.answer_overhead.fillrate` and `.balance` (the time to the
 * answer at response_url, charts included, bench/slack.ts) against that time less what the charts and tables cost
 * the whole answer in CPU (measured above), which is the same answer without them. Added once both parts ran.
 */
export function addChartsShareOfAnswerOverhead(results: Results): void {
  const figure = (id: string) => results.figures.find((f) => f.id === id);
  for (const name of ['fillrate', 'balance']) {
    const overhead = figure(`slack.answer_overhead.${name}`);
    const cpu = figure(`charts.answer_cpu_us.${name}.slack`);
    if (typeof overhead?.value !== 'number' || typeof cpu?.value !== 'number' || typeof cpu.baseline !== 'number')
      continue;
    const extraMs = (cpu.value - cpu.baseline) / 1000;
    const without = overhead.value - extraMs;
    const ratio = ratioOf(overhead.value, without);
    results.add({
      id: `charts.answer_overhead.${name}`,
      label: `Charts: /linen ${name} on Slack, time to the answer at response_url with its charts and tables (slack.answer_overhead.${name}); baseline: that time less the CPU the charts and tables add to the whole answer (${round(extraMs * 1000, 0)} µs, charts.answer_cpu_us.${name}.slack)`,
      value: overhead.value,
      unit: 'ms',
      baseline: round(without),
      ratio,
      target: `ratio <= ${TARGET_RATIO}`,
      met: ratio !== null && ratio <= TARGET_RATIO,
    });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  await benchCharts(new Results(), { quick: process.argv.includes('--quick') });
  process.exit(0);
}
