/** Waiting on a fake's state: call `notify()` after every change; `waitFor(check)` resolves once `check` returns a value. */
export function createWaiters() {
  const waiters = new Set<() => void>();
  const notify = () => {
    for (const w of [...waiters]) w();
  };
  const waitFor = <T>(check: () => T | undefined, timeoutMs: number, what: string): Promise<T> =>
    new Promise((resolve, reject) => {
      const tryNow = () => {
        const v = check();
        if (v !== undefined) {
          waiters.delete(tryNow);
          clearTimeout(timer);
          resolve(v);
        }
      };
      const timer = setTimeout(() => {
        waiters.delete(tryNow);
        reject(new Error(`timed out waiting for ${what}`));
      }, timeoutMs);
      waiters.add(tryNow);
      tryNow();
    });
  return { notify, waitFor };
}
