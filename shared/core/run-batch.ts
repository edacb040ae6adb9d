/**
 * Several operations driven together on a blocking runtime. Whenever every unfinished operation waits on a
 * request or a sleep, the waiting requests go out as one batch (Apps Script's `UrlFetchApp.fetchAll`), so N
 * independent list walks cost as many round trips as the longest of them, not their sum. Pacing still applies
 * request by request: each operation takes its slot before it yields its request, so a batch never holds more
 * requests than the pacer allowed, and an operation told to wait sleeps while the others go on.
 */
import {
  cannotWait,
  type Effect,
  type EffectResult,
  type HttpRequest,
  type HttpResponse,
  type Operation,
  syncPaceAnswer,
} from './effects.ts';

/** A transport that performs several requests at once; each entry is that request's response or failure. */
export interface BatchSyncTransport {
  requestAll(batch: readonly { req: HttpRequest; timeoutMs: number }[]): (HttpResponse | Error)[];
}

export type Settled<T> = { ok: true; value: T } | { ok: false; error: unknown };

export interface BatchRunOptions {
  /** Blocking sleep, e.g. `Utilities.sleep` in Apps Script. */
  sleep: (ms: number) => void;
  now?: () => number;
  /** At most this many requests in one batch (default 20). */
  maxBatch?: number;
}

type Parked = { t: 'http'; req: HttpRequest; timeoutMs: number } | { t: 'sleep'; until: number };

/** Run every operation to its end; the results come back in the order of `ops`, each a value or an error. */
export function runSyncBatch<T>(
  ops: readonly Operation<T>[],
  transport: BatchSyncTransport,
  options: BatchRunOptions,
): Settled<T>[] {
  const clock = options.now ?? Date.now;
  const maxBatch = Math.max(1, options.maxBatch ?? 20);
  const results: Settled<T>[] = new Array(ops.length);
  const parked = new Map<number, Parked>();

  /** Step operation `i` (first with `resume`) until it waits on a request or a sleep, or ends. */
  const advance = (i: number, resume: () => IteratorResult<Effect, T>) => {
    const op = ops[i]!;
    try {
      let step = resume();
      while (!step.done) {
        const eff = step.value;
        if (eff.t === 'now') {
          step = op.next(clock());
        } else if (eff.t === 'pace') {
          step = op.next(syncPaceAnswer(eff));
        } else if (eff.t === 'sleep') {
          parked.set(i, { t: 'sleep', until: clock() + eff.ms });
          return;
        } else if (eff.t === 'wait') {
          cannotWait();
        } else {
          parked.set(i, { t: 'http', req: eff.req, timeoutMs: eff.timeoutMs });
          return;
        }
      }
      results[i] = { ok: true, value: step.value };
    } catch (error) {
      results[i] = { ok: false, error };
    }
  };
  const resumeWith = (i: number, result: EffectResult | Error) => {
    parked.delete(i);
    advance(i, () => (result instanceof Error ? ops[i]!.throw(result) : ops[i]!.next(result)));
  };

  for (let i = 0; i < ops.length; i++) advance(i, () => ops[i]!.next());
  while (parked.size > 0) {
    // Sleepers whose time has come join the next batch.
    for (const [i, p] of [...parked]) if (p.t === 'sleep' && p.until <= clock()) resumeWith(i, undefined);
    const batch = [...parked].filter((e): e is [number, Parked & { t: 'http' }] => e[1].t === 'http');
    if (batch.length > 0) {
      const sent = batch.slice(0, maxBatch);
      const answers = transport.requestAll(sent.map(([, p]) => ({ req: p.req, timeoutMs: p.timeoutMs })));
      for (const [k, [i]] of sent.entries())
        resumeWith(i, answers[k] ?? new Error('the batch transport gave no answer'));
      continue;
    }
    const wake = Math.min(...[...parked.values()].map((p) => (p.t === 'sleep' ? p.until : Number.POSITIVE_INFINITY)));
    const wait = wake - clock();
    if (wait > 0) options.sleep(wait);
  }
  return results;
}
