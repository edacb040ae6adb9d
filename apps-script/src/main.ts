/**
 * The bundle's entry: it sets the one global of Code.js, `LinenAddon`, which the generated top-level functions
 * (custom functions, menu items, triggers, dialog calls) delegate to.
 */

import { IMPLS } from '../../shared/cells/functions.ts';
import {
  linenBuilderCustomers,
  linenBuilderItems,
  linenInsertFormula,
  linenPreviewFormula,
  linenShowBuilder,
} from './builder.ts';
import { Context } from './context.ts';
import { namedArgs } from './invoke.ts';
import { sheetsMessage } from './messages.ts';
import { linenRecordHistoryNow, linenSaveSchedule, linenScheduledRun, linenScheduleState } from './schedule.ts';
import { linenInsertReport, linenReportOptions } from './templates.ts';
import {
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
} from './ui.ts';

/** Run a custom function; any failure becomes an `Error` whose message is one sentence (the cell's `#ERROR!`). */
function call(name: string, argv: ArrayLike<unknown>): unknown {
  const started = Date.now();
  let ctx: Context | undefined;
  try {
    const named = namedArgs(name, Array.from(argv));
    ctx = new Context(started, { cell: true });
    return ctx.run(IMPLS[name]!(ctx, named));
  } catch (e) {
    throw new Error(sheetsMessage(e, ctx?.secrets ?? []));
  }
}

const addon = {
  call,
  linenBuilderCustomers,
  linenBuilderItems,
  linenClearApiKey,
  linenDialogState,
  linenInsertFormula,
  linenInsertReport,
  linenPreviewFormula,
  linenRecordHistoryNow,
  linenRefreshData,
  linenReportAging,
  linenReportFillRate,
  linenReportHistory,
  linenReportOptions,
  linenReportShortfalls,
  linenReportTickets,
  linenSaveApiKey,
  linenSaveBaseUrl,
  linenSaveSchedule,
  linenScheduleState,
  linenScheduledRun,
  linenShowAddressDialog,
  linenShowBuilder,
  linenShowHelp,
  linenShowHistory,
  linenShowKeyDialog,
  linenShowSchedule,
  onInstall: onOpen,
  onOpen,
};

declare global {
  var LinenAddon: typeof addon;
}

// Set here rather than through esbuild's `globalName`, which would wrap the exports in a module namespace object
// (a getter per function and the helpers that build it) in every execution's load.
globalThis.LinenAddon = addon;
