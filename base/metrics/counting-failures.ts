/**
 * A store with its failures counted by operation: every method whose promise rejects (or that throws) is reported
 * by its name, so `linen_store_errors_total` says which operation a database outage broke.
 */
import type { SqlExecutor } from '../store/sql.ts';

type OnError = (operation: string) => void;

/** Calls of `target`'s methods whose promise rejects (or that throw) are reported by method name. */
export function countingFailures<T extends object>(target: T, onError: OnError): T {
  return new Proxy(target, {
    get(obj, prop) {
      const value = Reflect.get(obj, prop, obj);
      if (typeof prop !== 'string' || typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        try {
          const result = (value as (...a: unknown[]) => unknown).apply(obj, args);
          if (result instanceof Promise)
            return result.catch((err: unknown) => {
              onError(prop);
              throw err;
            });
          return result;
        } catch (err) {
          onError(prop);
          throw err;
        }
      };
    },
  });
}

/** The database with the failures of the queries run on it counted as `sql_query` and `sql_transaction`. */
export function databaseCountingErrors(db: SqlExecutor, onError: OnError): SqlExecutor {
  return countingFailures(db, (op) => onError(`sql_${op}`));
}
