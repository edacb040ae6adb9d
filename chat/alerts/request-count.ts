/**
 * How many Linen API requests one check really sent: the check runs in an async context of its own, and the
 * service's request observer counts each request sent within it. A listing answered by a request another caller
 * already had in flight (or answered moments ago) costs the check nothing and is not counted; a command that
 * coalesces onto the check's request is counted once, for the check that sent it.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { RequestObserver } from '../../shared/core/observer.ts';

const current = new AsyncLocalStorage<{ requests: number }>();

/** Runs `fn` counting the requests sent within it; the count is read once `fn` has settled. */
export async function countingRequests<T>(fn: () => Promise<T>): Promise<{ value: T; requests: number }> {
  const counter = { requests: 0 };
  const value = await current.run(counter, fn);
  return { value, requests: counter.requests };
}

/** The observer, counting too the requests sent for the check under way (if any). */
export function countingCheckRequests(observer: RequestObserver | undefined): RequestObserver {
  return {
    ...observer,
    request: (event) => {
      const counter = current.getStore();
      if (counter) counter.requests++;
      observer?.request?.(event);
    },
  };
}
