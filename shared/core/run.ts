/**
 * The two runners. Each performs the effects an operation yields and feeds the results back in; transport
 * failures are thrown into the generator at the `yield`, where the retry logic sees them.
 */
import {
  type AsyncTransport,
  cannotWait,
  type Effect,
  type EffectResult,
  type Operation,
  type SyncTransport,
  syncPaceAnswer,
} from './effects.ts';

export interface SyncRunOptions {
  /** Blocking sleep, e.g. `Utilities.sleep` in Apps Script. */
  sleep: (ms: number) => void;
  now?: () => number;
}

export function runSync<T>(
  op: Operation<T>,
  transport: SyncTransport,
  sleepOrOptions: SyncRunOptions | ((ms: number) => void),
): T {
  const opts: SyncRunOptions = typeof sleepOrOptions === 'function' ? { sleep: sleepOrOptions } : sleepOrOptions;
  const clock = opts.now ?? Date.now;
  let step = op.next();
  while (!step.done) {
    const eff: Effect = step.value;
    let result: EffectResult;
    if (eff.t === 'http') {
      try {
        result = transport.request(eff.req, { timeoutMs: eff.timeoutMs });
      } catch (e) {
        step = op.throw(e);
        continue;
      }
    } else if (eff.t === 'sleep') {
      opts.sleep(eff.ms);
      result = undefined;
    } else if (eff.t === 'pace') {
      result = syncPaceAnswer(eff);
    } else if (eff.t === 'now') {
      result = clock();
    } else {
      cannotWait();
    }
    step = op.next(result);
  }
  return step.value;
}

export interface AsyncRunOptions {
  signal?: AbortSignal | undefined;
  now?: () => number;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

export function abortError(signal: AbortSignal): Error {
  const reason: unknown = signal.reason;
  if (reason instanceof Error) return reason;
  const e = new Error('The operation was aborted');
  e.name = 'AbortError';
  return e;
}

export function abortableSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(abortError(signal));
    const onAbort = () => {
      clearTimeout(timer);
      reject(abortError(signal!));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

export async function runAsync<T>(
  op: Operation<T>,
  transport: AsyncTransport,
  options: AsyncRunOptions = {},
): Promise<T> {
  const clock = options.now ?? Date.now;
  const doSleep = options.sleep ?? abortableSleep;
  const { signal } = options;
  let step = op.next();
  while (!step.done) {
    const eff: Effect = step.value;
    let result: EffectResult;
    try {
      if (signal?.aborted) throw abortError(signal);
      if (eff.t === 'http') {
        result = await transport.request(eff.req, { timeoutMs: eff.timeoutMs, ...(signal ? { signal } : {}) });
      } else if (eff.t === 'sleep') {
        await doSleep(eff.ms, signal);
        result = undefined;
      } else if (eff.t === 'pace') {
        result = (await eff.ask()) as EffectResult;
      } else if (eff.t === 'wait') {
        result = (await eff.until(signal)) as EffectResult;
      } else {
        result = clock();
      }
    } catch (e) {
      step = op.throw(e);
      continue;
    }
    step = op.next(result);
  }
  return step.value;
}
