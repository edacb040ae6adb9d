/**
 * Three bot replicas (separate processes) share one key's pacing through PostgreSQL, under the API's real limit
 * of 120 requests a minute: a burst of 300 `/linen signals` commands spread across them. Prints how many
 * requests the API answered 429 and how close the replicas ran to the ceiling. Needs DATABASE_URL (or
 * TEST_DATABASE_URL); takes about three minutes: `npx tsx bench/shared-pacing.ts`.
 */
import { runSharedPacing } from '../test/support/pacing-replicas.ts';

const databaseUrl = process.env.DATABASE_URL ?? process.env.TEST_DATABASE_URL;
if (!databaseUrl) {
  console.log('shared pacing: not measured (set DATABASE_URL to a PostgreSQL server)');
  process.exit(0);
}
const run = await runSharedPacing({ databaseUrl, replicas: 3, commands: 300, limit: 120, windowMs: 60_000 });
console.log(
  [
    `3 replicas, 1 key, 300 commands at 120 requests a minute: ${run.requests} requests, ${run.rateLimited} answered 429,`,
    `${(run.fraction * 100).toFixed(1)} % of the ceiling, ${run.signalAnswers} commands answered with the signals`,
    `and ${run.answered - run.signalAnswers} told the key's budget is spent for now, in ${run.seconds.toFixed(0)} s`,
  ].join(' '),
);
process.exit(0);
