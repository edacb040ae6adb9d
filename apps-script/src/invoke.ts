/**
 * A LINEN_ function's arguments by parameter name, as a cell passes them (trailing blanks dropped): shared by
 * the cells (main.ts) and the refresh planner, which runs the same functions to learn what they read.
 */
import { ArgError } from './messages.ts';

/** Parameter names per function, e.g. `{ LINEN_FILLRATE: 'customer,from,to,department,item' }`, written by the build from catalog.ts. */
declare const LINEN_SIGNATURES: Record<string, string>;

export function isLinenFunction(name: string): boolean {
  return Object.hasOwn(LINEN_SIGNATURES, name);
}

/** A function's parameter names, in order. */
export function signature(name: string): string[] {
  return (LINEN_SIGNATURES[name] ?? '').split(',').filter(Boolean);
}

export function namedArgs(name: string, args: readonly unknown[]): Record<string, unknown> {
  const params = signature(name);
  let n = args.length;
  while (n > 0 && args[n - 1] === undefined) n--;
  if (n > params.length) throw new ArgError(`Too many arguments: ${name}(${params.join(', ')}).`);
  // A missing required argument is reported by the reader of that argument, in its own words.
  const named: Record<string, unknown> = {};
  for (const [i, p] of params.entries()) named[p] = args[i];
  return named;
}
