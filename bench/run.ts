/**
 * `npm run bench`: measures every figure the README quotes, each next to the baseline or limit it is held
 * against, measured in the same run, and writes them to bench/results.json (`npm run bench:table` then
 * rewrites the README's table from it). `npm run bench -- --quick` runs the smaller sizes only, in under two
 * minutes, and writes bench/results.quick.json. `--only=memory,digests` runs the named parts alone (ceiling,
 * sheets, excel, bundle, refresh, slack, slack-burst, charts, digests, alerts, teams, teams-digests, memory) and
 * writes bench/results.only.json. `teams`: acknowledgement of 50 concurrent message activities against a bare Teams
 * SDK app; `teams-digests`: digests to Teams channels at 1,000 subscriptions against the pacing floor; `charts`: the
 * CPU time of fillrate and balance answers with their charts and tables against the same answers without them;
 * `alerts`: 1,000 alerts on 100 keys (200 on 20 in a quick run) checked twice, the requests per key against what
 * their alerts need, CPU per check, the messages against the alerts woken, peak memory. Nothing here asserts or
 * fails on a time: a missed target is recorded as not met.
 */
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { benchAlerts } from './alerts.ts';
import { benchBotMemory } from './bot-memory.ts';
import { benchBundleLoad } from './bundle-load.ts';
import { benchCeiling } from './ceiling-walk.ts';
import { addChartsShareOfAnswerOverhead, benchCharts } from './charts.ts';
import { benchDigests, benchTeamsDigests } from './digests.ts';
import { benchExcel } from './excel.ts';
import { benchRefresh } from './refresh.ts';
import { Results, RUN_IDS } from './results.ts';
import { benchSheets } from './sheets.ts';
import { benchSlack } from './slack.ts';
import { benchSlackBurst } from './slack-burst.ts';
import { benchTeams } from './teams.ts';

const quick = process.argv.includes('--quick');
const only = process.argv
  .find((a) => a.startsWith('--only='))
  ?.slice('--only='.length)
  .split(',');
const runs = (part: string) => !only || only.includes(part);
const results = new Results();
const load = () =>
  loadavg()
    .map((x) => x.toFixed(2))
    .join(' ');
const loadAtStart = load();
const started = Date.now();
console.log(`linen-connect benchmarks${quick ? ' (quick)' : ''}, Node ${process.version}, load ${loadAtStart}\n`);

if (runs('ceiling')) await benchCeiling(results, { quick });
if (runs('sheets')) await benchSheets(results, { quick });
if (runs('excel')) await benchExcel(results);
if (runs('bundle')) await benchBundleLoad(results);
if (runs('refresh') && !quick) await benchRefresh(results);
if (runs('slack')) await benchSlack(results, { quick });
if (runs('slack-burst')) await benchSlackBurst(results);
if (runs('charts')) await benchCharts(results, { quick });
if (runs('charts') && runs('slack')) addChartsShareOfAnswerOverhead(results);
if (runs('digests')) await benchDigests(results, { quick });
if (runs('alerts')) await benchAlerts(results, { quick });
if (runs('teams')) await benchTeams(results, { quick });
if (runs('teams-digests')) await benchTeamsDigests(results);
if (runs('memory')) await benchBotMemory(results);

const cpu = cpus();
results.add({ id: RUN_IDS.date, label: 'Date of the run', value: `${new Date(started).toISOString().slice(0, 16)}Z` });
results.add({
  id: RUN_IDS.machine,
  label: 'Machine',
  value: `${cpu.length} × ${cpu[0]?.model.trim() ?? 'unknown CPU'}, ${process.platform}, Node ${process.version}`,
});
results.add({
  id: RUN_IDS.load,
  label: 'Load average (1, 5, 15 min)',
  value: `${loadAtStart} at the start, ${load()} at the end (the machine is shared: timings move with its load)`,
});
results.add({
  id: RUN_IDS.mode,
  label: 'Mode',
  value: `${quick ? 'quick' : 'full'}${only ? ` (${only.join(', ')} only)` : ''}, ${((Date.now() - started) / 1000).toFixed(0)} s`,
});
const out = join(
  fileURLToPath(new URL('.', import.meta.url)),
  only ? 'results.only.json' : quick ? 'results.quick.json' : 'results.json',
);
results.write(out);
const missed = results.figures.filter((f) => f.met === false);
console.log(
  `\nwrote ${out}; ${missed.length} target(s) not met${missed.length ? `: ${missed.map((f) => f.id).join(', ')}` : ''}`,
);
process.exit(0);
