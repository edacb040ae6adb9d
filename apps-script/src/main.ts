/**
 * The bundle's entry (global `LinenAddon`). Code.js adds the top-level functions Sheets and the menu call,
 * each delegating here.
 */
import { Context } from './context.ts';
import { IMPLS } from './functions.ts';
import { namedArgs } from './invoke.ts';
import { cellMessage } from './messages.ts';

export {
  linenBuilderCustomers,
  linenBuilderItems,
  linenInsertFormula,
  linenPreviewFormula,
  linenShowBuilder,
} from './builder.ts';
export {
  linenRecordHistoryNow,
  linenSaveSchedule,
  linenScheduledRun,
  linenScheduleState,
} from './schedule.ts';
export { linenInsertReport, linenReportOptions } from './templates.ts';
export {
  linenClearApiKey,
  linenDialogState,
  linenRefreshData,
  linenReportAging,
  linenReportFillRate,
  linenReportHistory,
  linenReportShortfalls,
  linenReportTickets,
  linenSaveApiKey,
  linenSaveBaseUrl,
  linenShowAddressDialog,
  linenShowHelp,
  linenShowHistory,
  linenShowKeyDialog,
  linenShowSchedule,
  onOpen,
  onOpen as onInstall,
} from './ui.ts';

/** Run a custom function; any failure becomes an `Error` whose message is one sentence (the cell's `#ERROR!`). */
export function call(name: string, argv: ArrayLike<unknown>): unknown {
  const started = Date.now();
  let ctx: Context | undefined;
  try {
    const named = namedArgs(name, Array.from(argv));
    ctx = new Context(started, { cell: true });
    return IMPLS[name]!(ctx, named);
  } catch (e) {
    throw new Error(cellMessage(e, ctx?.secrets ?? []));
  }
}
