/**
 * A LINEN_ function's arguments by parameter name, as a cell passes them (trailing blanks dropped): shared by
 * the cells (main.ts) and the refresh planner, which runs the same functions to learn what they read.
 */
import { namedArgs as byName } from '../../shared/cells/args.ts';

/** Parameter names per function, e.g. `{ LINEN_FILLRATE: 'customer,from,to,department,item' }`, written by the build from the catalog. */
declare const LINEN_SIGNATURES: Record<string, string>;

export function isLinenFunction(name: string): boolean {
  return Object.hasOwn(LINEN_SIGNATURES, name);
}

/** A function's parameter names, in order. */
export function signature(name: string): string[] {
  return (LINEN_SIGNATURES[name] ?? '').split(',').filter(Boolean);
}

export function namedArgs(name: string, args: readonly unknown[]): Record<string, unknown> {
  return byName(name, signature(name), args);
}
