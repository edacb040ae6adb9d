/**
 * Three bot replicas (separate processes) share one key's pacing through PostgreSQL, under the API's real limit
 * of 120 requests a minute: 300 `/linen fillrate` commands spread across them at 150 a minute for two minutes,
 * faster than the limit, so the key's budget is what holds them back. No two commands ask the same thing (each
 * its own customer and window, one page of deliveries), so neither a request in flight nor a kept answer serves
 * two of them: each costs a request of its own, and the customers list one per replica. A command waits for a
 * slot only within its budget and otherwise answers at once that the Linen API is busy. Prints what the API saw
 * (requests by path, 429s, the rate achieved) and what people saw (the fill rate, the busy sentence, anything
 * else, how soon). Needs DATABASE_URL (or TEST_DATABASE_URL); takes about three minutes:
 * `npx tsx bench/shared-pacing.ts`.
 */
import { INTERACTIVE_DEADLINES } from '../chat/answers/answer-in-time.ts';
import { runSharedPacing } from '../test/support/pacing-replicas.ts';

const databaseUrl = process.env.DATABASE_URL ?? process.env.TEST_DATABASE_URL;
if (!databaseUrl) {
  console.log('shared pacing: not measured (set DATABASE_URL to a PostgreSQL server)');
  process.exit(0);
}
const limit = 120;
const windowMs = 60_000;
const perMinute = 150;
const run = await runSharedPacing({
  databaseUrl,
  replicas: 3,
  commands: 300,
  commandsPerMinute: perMinute,
  limit,
  windowMs,
});
const minutes = run.sendingMs / windowMs;
// Requests the API answered while commands arrived faster than the limit, over what the limit allows then.
const fraction = run.requestsWhileSending / (limit * minutes);
const deadlineS = INTERACTIVE_DEADLINES.deadlineMs / 1000;
const paths = Object.entries(run.requestsByPath)
  .map(([path, n]) => `${n} ${path}`)
  .join(', ');
console.log(
  [
    `3 replicas, 1 key, 300 /linen fillrate (${run.questions} different customers and windows) at ${perMinute} a minute`,
    `for ${minutes.toFixed(0)} minutes, limit ${limit} a minute:`,
    `${run.requests} requests (${paths}), ${run.rateLimited} answered 429, at most ${run.perWindow} in any ${windowMs / 1000} s;`,
    `${run.requestsWhileSending} requests in the ${minutes.toFixed(0)} minutes the commands arrived, ${fraction.toFixed(3)}`,
    `of the ${limit * minutes} the limit allows then (${(run.requestsWhileSending / minutes).toFixed(1)} a minute);`,
    `${run.dataAnswers} answered with the fill rate, ${run.busyAnswers} with "The Linen API is busy (rate limited);`,
    `try again in N seconds.", ${run.otherAnswers.length} otherwise${run.otherAnswers.length ? ` (${[...new Set(run.otherAnswers)].join(' | ')})` : ''},`,
    `${run.silent} not answered; slowest answer ${(run.slowestAnswerMs / 1000).toFixed(1)} s after its command`,
    `(deadline ${deadlineS} s): ${run.slowestAnswerMs <= INTERACTIVE_DEADLINES.deadlineMs ? 'every command answered within it' : 'NOT every command answered within it'}; ${run.seconds.toFixed(0)} s in all`,
  ].join(' '),
);
process.exit(0);
