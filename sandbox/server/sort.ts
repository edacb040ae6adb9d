/** Comparators for the list orders decided in sandbox/README.md. */

export type Comparator<T> = (a: T, b: T) => number;

export function byText(a: string | null | undefined, b: string | null | undefined): number {
  if (a === b) return 0;
  if (a == null) return -1;
  if (b == null) return 1;
  const c = a.localeCompare(b, 'en');
  return c !== 0 ? c : a < b ? -1 : a > b ? 1 : 0;
}

export function byId(a: { id: string }, b: { id: string }): number {
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/** Newest first by a nullable date (ISO timestamps and YYYY-MM-DD days sort as text); nulls last. */
export function newestFirst<T>(dateOf: (row: T) => string | null): Comparator<T> {
  return (a, b) => {
    const da = dateOf(a);
    const db = dateOf(b);
    if (da === db) return 0;
    if (da === null) return 1;
    if (db === null) return -1;
    return da < db ? 1 : -1;
  };
}

/** Applies comparators in turn. */
export function chain<T>(...comparators: Comparator<T>[]): Comparator<T> {
  return (a, b) => {
    for (const c of comparators) {
      const r = c(a, b);
      if (r !== 0) return r;
    }
    return 0;
  };
}

export function sorted<T>(rows: readonly T[], compare: Comparator<T>): T[] {
  return [...rows].sort(compare);
}
