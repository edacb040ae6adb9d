/**
 * Sheets ends a custom function after 30 s. Every custom function of the built add-on (the stubs in Code.js,
 * so a new one is covered the day it is added) is run under API faults on a virtual clock: `Utilities.sleep`
 * and each request's simulated latency move the clock the execution's `Date.now` reads, which is the clock the
 * add-on's time budget reads. Each run must end with a valid result or one clear sentence, in under 30 s of
 * that clock, however long the retries, Retry-After waits and pacing it chose.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { linenCalls } from '../../apps-script/src/formulas.ts';
import type { QueuedFault } from '../../sandbox/index.ts';
import { FUNCTIONS } from '../../shared/cells/catalog.ts';
import type { SyncHttp } from '../support/apps-script-fakes.ts';
import { startExecution } from '../support/apps-script-fakes.ts';
import { coldCache, type Harness, KEYS, startHarness } from '../support/apps-script-harness.ts';

/** Sheets' limit for one custom-function execution. */
const SHEETS_LIMIT_MS = 30_000;

interface TimeFault {
  name: string;
  /** What the sandbox does with every request (absent: it answers). */
  fault?: QueuedFault['kind'];
  /** How long each request takes, charged to the execution's clock. */
  latencyMs: number;
  /** The Retry-After (seconds) the API's 429s carry instead of the sandbox's 1. */
  retryAfterS?: number;
  /** The key's 120 requests of the minute already sent by other executions when the cell starts. */
  pacingFull?: boolean;
  /** The sentences a failing cell may show. */
  sentences: RegExp;
}

const NOT_IN_TIME = /^The Linen API did not answer in time; try again\.$/;
const INTERNAL = /^The Linen API had an internal error \(request req_\w+\); quote it to support\.$/;
const BUSY = /^The Linen API is busy \(rate limited\); try again (in \d+ seconds?|shortly)\.$/;
const either = (...res: RegExp[]) => new RegExp(res.map((r) => r.source).join('|'));

const FAULTS: readonly TimeFault[] = [
  { name: 'a healthy API', latencyMs: 0, sentences: /^$/ },
  { name: 'a run of 500s', fault: '500', latencyMs: 0, sentences: either(INTERNAL, NOT_IN_TIME) },
  {
    name: 'a run of 500s, each after 9 s',
    fault: '500',
    latencyMs: 9_000,
    sentences: either(INTERNAL, NOT_IN_TIME),
  },
  { name: 'a 429 storm, Retry-After 1 s', fault: '429', latencyMs: 0, sentences: either(BUSY, NOT_IN_TIME) },
  {
    name: 'a 429 storm, Retry-After 16 s',
    fault: '429',
    latencyMs: 0,
    retryAfterS: 16,
    sentences: either(BUSY, NOT_IN_TIME),
  },
  {
    name: 'a 429 storm, Retry-After 25 s',
    fault: '429',
    latencyMs: 0,
    retryAfterS: 25,
    sentences: either(BUSY, NOT_IN_TIME),
  },
  { name: "the key's pacing window full", latencyMs: 0, pacingFull: true, sentences: BUSY },
  { name: 'a slow API, 6 s a request', latencyMs: 6_000, sentences: NOT_IN_TIME },
  { name: 'a slow API, 13 s a request', latencyMs: 13_000, sentences: NOT_IN_TIME },
];

/** The custom functions Code.js declares: every generated `function LINEN_X(...){return LinenAddon.call(...)}`. */
function declaredFunctions(code: string): string[] {
  return [...code.matchAll(/function (LINEN_[A-Z_]+)\([^)]*\)\{return LinenAddon\.call\("\1",arguments\)\}/g)].map(
    (m) => m[1]!,
  );
}

/** A function's arguments: those of its catalog example, which works against the sandbox's data. */
function exampleArgs(name: string): unknown[] {
  const spec = FUNCTIONS.find((f) => f.name === name);
  if (!spec) throw new Error(`${name} is declared in Code.js but has no catalog entry`);
  const call = linenCalls(spec.example).find((c) => c.name === name);
  if (!call?.args) throw new Error(`the example of ${name} has arguments only Sheets can work out`);
  return call.args.map((a) => {
    if (a.kind !== 'value') throw new Error(`the example of ${name} has a ${a.kind} argument`);
    return a.value;
  });
}

/** The API's 429s carrying another Retry-After (the sandbox always says 1 s). */
function withRetryAfter(http: SyncHttp, seconds: number): SyncHttp {
  return {
    request(req, options) {
      const res = http.request(req, options);
      return res.status === 429 ? { ...res, headers: { ...res.headers, 'retry-after': String(seconds) } } : res;
    },
  };
}

let h: Harness;
let names: string[];
let realHttp: SyncHttp;

beforeAll(async () => {
  h = await startHarness();
  realHttp = h.world.http;
  names = declaredFunctions(readFileSync(join(h.dir, 'Code.js'), 'utf8'));
  h.world.clock = { offsetMs: 0, perFetchMs: 0, virtualSleep: true };
});
afterEach(async () => {
  h.world.http = realHttp;
  await h.sb.resetFaults();
});
afterAll(async () => {
  await h?.close();
});

/** The add-on's pacing state for the key (apps-script/src/gas.ts, cachePacingStore), as another execution left it. */
function fillPacingWindow(): void {
  const now = Date.now() + h.world.clock!.offsetMs;
  const keyHash = createHash('sha256').update(KEYS.all).digest('hex');
  const state = { sent: Array.from({ length: 120 }, () => now), blockedUntil: 0 };
  h.backing.cachePut('script', { [`linen:pace:${keyHash}`]: JSON.stringify(state) }, 180);
}

/** Run one cell on the virtual clock; how long it took as the execution's own clock saw it. */
function timedCell(name: string, args: unknown[]) {
  coldCache(h);
  h.takeFetches();
  const ex = startExecution(h.world, h.scripts, 'custom');
  try {
    const started = ex.evaluate<number>('Date.now()');
    const r = ex.call(name, ...args);
    const elapsedMs = ex.evaluate<number>('Date.now()') - started;
    return { ...r, elapsedMs, requests: h.takeFetches().length };
  } finally {
    ex.end();
  }
}

describe('the custom functions of Code.js', () => {
  it('are the catalog, each with an example the test can run', () => {
    expect(names.length).toBeGreaterThanOrEqual(30);
    expect([...names].sort()).toEqual(FUNCTIONS.map((f) => f.name).sort());
    for (const name of names) expect(() => exampleArgs(name)).not.toThrow();
  });
});

describe.each(FAULTS)('$name', (f) => {
  it('every custom function ends with a result or one sentence inside 30 s of its own clock', async () => {
    const problems: string[] = [];
    for (const name of names) {
      await h.sb.resetFaults();
      if (f.fault) await h.sb.enqueue({ kind: f.fault, count: 10_000 });
      h.world.http = f.retryAfterS ? withRetryAfter(realHttp, f.retryAfterS) : realHttp;
      h.world.clock!.perFetchMs = 0;
      // Each cell a minute after the last: the pacing window one cell used is clear for the next.
      h.world.clock!.offsetMs += 60_000;
      if (f.pacingFull) fillPacingWindow();
      h.world.clock!.perFetchMs = f.latencyMs;
      const r = timedCell(name, exampleArgs(name));
      const seen = `${name}: ${r.elapsedMs} ms, ${r.requests} requests, ${r.error ?? 'a value'}`;

      if (f.pacingFull ? r.requests > 0 : r.requests < 1) problems.push(`${seen}: not the requests expected`);
      // The simulated latency is charged to the clock the add-on reads.
      if (r.elapsedMs < r.requests * f.latencyMs) problems.push(`${seen}: the latency was not charged`);
      if (
        r.error !== undefined
          ? !f.sentences.test(r.error)
          : f.fault !== undefined || f.pacingFull || r.value === undefined
      ) {
        problems.push(`${seen}: not the expected answer`);
      }
      if (r.elapsedMs >= SHEETS_LIMIT_MS) problems.push(`${seen}: past Sheets' 30 s`);
    }
    expect(problems).toEqual([]);
  }, 120_000);
});
