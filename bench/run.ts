/**
 * `npm run bench`: measures every figure the README quotes, each next to the baseline or limit it is held
 * against, measured in the same run, and writes them to bench/results.json (`npm run bench:table` then
 * rewrites the README's table from it). `npm run bench -- --quick` runs the smaller sizes only, in under two
 * minutes, and writes bench/results.quick.json. Nothing here asserts or fails on a time: a missed target is
 * recorded as not met.
 */
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { benchBundleLoad } from './bundle-load.ts';
import { benchCeiling } from './ceiling-walk.ts';
import { benchDigests } from './digests.ts';
import { benchRefresh } from './refresh.ts';
import { Results, RUN_IDS } from './results.ts';
import { benchSheets } from './sheets.ts';
import { benchSlack } from './slack.ts';

const quick = process.argv.includes('--quick');
const results = new Results();
const load = () =>
  loadavg()
    .map((x) => x.toFixed(2))
    .join(' ');
const loadAtStart = load();
const started = Date.now();
console.log(`linen-connect benchmarks${quick ? ' (quick)' : ''}, Node ${process.version}, load ${loadAtStart}\n`);

await benchCeiling(results, { quick });
await benchSheets(results, { quick });
await benchBundleLoad(results);
if (!quick) await benchRefresh(results);
await benchSlack(results, { quick });
await benchDigests(results, { quick });

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
  value: `${quick ? 'quick' : 'full'}, ${((Date.now() - started) / 1000).toFixed(0)} s`,
});
const out = join(fileURLToPath(new URL('.', import.meta.url)), quick ? 'results.quick.json' : 'results.json');
results.write(out);
const missed = results.figures.filter((f) => f.met === false);
console.log(
  `\nwrote ${out}; ${missed.length} target(s) not met${missed.length ? `: ${missed.map((f) => f.id).join(', ')}` : ''}`,
);
process.exit(0);
