/// <reference types="custom-functions-runtime" />
/**
 * A LINEN function as Excel calls it: the arguments Excel passes, read as Sheets reads its own; the function's
 * work run with `runAsync`; the value a cell or a spilled table shows, or a `CustomFunctions.Error` with the
 * sentence Sheets shows. A call Excel cancels stops at once (its requests are cancelled when no other cell waits
 * on them).
 */
import { namedArgs } from '../../shared/cells/args.ts';
import { FUNCTIONS, type FunctionSpec, mayReturnTable } from '../../shared/cells/catalog.ts';
import { IMPLS } from '../../shared/cells/functions.ts';
import { ArgError, beforeAnyRequest, cellMessage } from '../../shared/cells/messages.ts';
import type { Cell } from '../../shared/cells/values.ts';
import { runAsync } from '../../shared/core/run.ts';
import { ExcelContext } from './context.ts';
import { dateStyle } from './date-cells.ts';
import { type Runtime, SET_KEY } from './runtime.ts';

const SPECS = new Map(FUNCTIONS.map((f) => [f.name, f]));

/**
 * Excel's arguments as the shared readers expect them. An empty cell reaches a parameter of type `any` as 0 in
 * Excel on Windows and as null on the web: for a date, whose serial number is never 0, it is blank. A ticket
 * number is a matrix parameter (a range gives a column of statuses): one cell is one value, empty cells are blank.
 */
export function excelArgs(spec: FunctionSpec, args: readonly unknown[]): unknown[] {
  return spec.params.map((p, i) => {
    const v = args[i];
    if (p.kind === 'date' && v === 0) return null;
    if (p.kind === 'ticket' && Array.isArray(v)) {
      const cells = (v as unknown[][]).map((row) => row.map((c) => (c === 0 || c === null ? '' : c)));
      return cells.length === 1 && cells[0]!.length === 1 ? cells[0]![0] : cells;
    }
    return v;
  });
}

/** The Excel error of a failure: #VALUE! for a wrong argument, #N/A for the rest, each with its sentence. */
export function excelError(e: unknown, secrets: readonly string[]): CustomFunctions.Error {
  const code =
    e instanceof ArgError || beforeAnyRequest(e)
      ? CustomFunctions.ErrorCode.invalidValue
      : CustomFunctions.ErrorCode.notAvailable;
  return new CustomFunctions.Error(code, cellMessage(e, secrets, SET_KEY));
}

export async function callLinen(
  runtime: Runtime,
  name: string,
  args: readonly unknown[],
  invocation?: CustomFunctions.CancelableInvocation,
): Promise<Cell | Cell[][]> {
  const cancel = new AbortController();
  if (invocation) invocation.onCanceled = () => cancel.abort();
  let secrets: string[] = [];
  try {
    const spec = SPECS.get(name);
    const work = IMPLS[name];
    if (!spec || !work) throw new ArgError(`${name} is not a Linen function.`);
    const named = namedArgs(
      name,
      spec.params.map((p) => p.name),
      excelArgs(spec, args),
    );
    const session = await runtime.session();
    secrets = [session.apiKey];
    const value = await runAsync(work(new ExcelContext(session, dateStyle()), named), session.transport, {
      signal: cancel.signal,
    });
    // A function that may spill is declared to return a table: a single value is a table of one cell.
    return mayReturnTable(spec) && !Array.isArray(value) ? [[value]] : value;
  } catch (e) {
    throw excelError(e, secrets);
  }
}
