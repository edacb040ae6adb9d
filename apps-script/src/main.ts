/**
 * The bundle's entry (global `LinenAddon`). Code.js adds the top-level functions Sheets and the menu call,
 * each delegating here.
 */
import { Context } from './context.ts';
import { IMPLS } from './functions.ts';
import { ArgError, cellMessage } from './messages.ts';

/** Parameter names per function, e.g. `{ LINEN_FILLRATE: 'customer,from,to,department,item' }`, written by the build from catalog.ts. */
declare const LINEN_SIGNATURES: Record<string, string>;

export {
  linenClearApiKey,
  linenDialogState,
  linenRefreshData,
  linenSaveApiKey,
  linenSaveBaseUrl,
  linenShowAddressDialog,
  linenShowHelp,
  linenShowKeyDialog,
  onOpen,
  onOpen as onInstall,
} from './ui.ts';

/** Run a custom function; any failure becomes an `Error` whose message is one sentence (the cell's `#ERROR!`). */
export function call(name: string, argv: ArrayLike<unknown>): unknown {
  const started = Date.now();
  let ctx: Context | undefined;
  try {
    const args = Array.from(argv);
    const params = (LINEN_SIGNATURES[name] ?? '').split(',').filter(Boolean);
    let n = args.length;
    while (n > 0 && args[n - 1] === undefined) n--;
    if (n > params.length) throw new ArgError(`Too many arguments: ${name}(${params.join(', ')}).`);
    // A missing required argument is reported by the reader of that argument, in its own words.
    const named: Record<string, unknown> = {};
    for (const [i, p] of params.entries()) named[p] = args[i];
    ctx = new Context(started);
    return IMPLS[name]!(ctx, named);
  } catch (e) {
    throw new Error(cellMessage(e, ctx?.secrets ?? []));
  }
}
