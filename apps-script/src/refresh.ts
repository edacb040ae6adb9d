/// <reference types="google-apps-script" />
/**
 * Refreshing every LINEN_ formula of the spreadsheet (the "Refresh data" menu and the scheduled run):
 * 1. find the formulas and the calls in them, reading the cells and named ranges they refer to;
 * 2. fetch the listings those calls need (planner.ts: fetchAll, shared pacing, each listing once) and store them
 *    under a new cache generation, which cells do not read yet;
 * 3. only when every listing is there, make the generation current and rewrite the formulas, so Sheets runs
 *    them again and each finds its listing in the cache.
 * A run that runs out of time keeps its generation pending and the next run continues it; a run that fails
 * (key rejected, API down) leaves the generation and every cell as they were.
 */

import { isDate } from '../../shared/cells/args.ts';
import { makeApi } from './context.ts';
import { sheetDay } from './format.ts';
import { type ArgSource, linenCalls, usesLinen } from './formulas.ts';
import { documentCache, documentProperties, PROP_GENERATION, readSettings, sha256 } from './gas.ts';
import { isLinenFunction } from './invoke.ts';
import { missingKeyMessage, sheetsMessage } from './messages.ts';
import { type PlannedCall, warmListings } from './planner.ts';
import { otherKeyReason } from './whose-key.ts';

/** Document property: the generation a run is filling, and since when (JSON). */
export const PROP_PENDING_REFRESH = 'LINEN_REFRESH_PENDING';
/** A pending generation older than this is started afresh: its first entries may have left the cache (6 h). */
const PENDING_MAX_AGE_MS = 5 * 3600_000;

interface LinenCell {
  sheet: GoogleAppsScript.Spreadsheet.Sheet;
  row: number;
  column: number;
  formula: string;
}

/** Every cell whose formula uses a LINEN_ function. */
export function linenCells(ss: GoogleAppsScript.Spreadsheet.Spreadsheet): LinenCell[] {
  const cells: LinenCell[] = [];
  for (const sheet of ss.getSheets()) {
    const range = sheet.getDataRange();
    for (const [r, row] of range.getFormulas().entries()) {
      for (const [c, formula] of row.entries()) {
        if (usesLinen(formula)) cells.push({ sheet, row: range.getRow() + r, column: range.getColumn() + c, formula });
      }
    }
  }
  return cells;
}

/** Clear and rewrite each formula: Sheets runs a custom function again only when its formula (or an argument) changes. */
export function recalculate(cells: readonly LinenCell[]): void {
  for (const c of cells) c.sheet.getRange(c.row, c.column).setFormula('');
  SpreadsheetApp.flush();
  for (const c of cells) c.sheet.getRange(c.row, c.column).setFormula(c.formula);
}

/** The calls of the formulas with their arguments as the cells pass them; calls whose arguments need Sheets are left out. */
function plannedCalls(
  ss: GoogleAppsScript.Spreadsheet.Spreadsheet,
  cells: readonly LinenCell[],
  sheetTimeZone: string,
): { calls: PlannedCall[]; foreseen: number; total: number } {
  const values = new Map<string, unknown>();
  const read = (range: GoogleAppsScript.Spreadsheet.Range | null, key: string): unknown => {
    if (!values.has(key)) {
      const v = range?.getValues();
      values.set(key, v === undefined ? undefined : v.length === 1 && v[0]!.length === 1 ? v[0]![0] : v);
    }
    return values.get(key);
  };
  const resolve = (a: ArgSource, home: GoogleAppsScript.Spreadsheet.Sheet): { v: unknown } | null => {
    switch (a.kind) {
      case 'value':
        return { v: a.value };
      case 'date': {
        const iso = new Date(Date.UTC(a.y, a.m - 1, a.d)).toISOString().slice(0, 10);
        return { v: sheetDay(iso, { org: sheetTimeZone, sheet: sheetTimeZone }) };
      }
      case 'ref': {
        const sheet = a.sheet === null ? home : ss.getSheetByName(a.sheet);
        if (!sheet) return null;
        const v = read(sheet.getRange(a.a1), `${sheet.getName()}!${a.a1}`);
        return v === undefined ? null : { v };
      }
      case 'named': {
        const v = read(ss.getRangeByName(a.name), `#${a.name}`);
        return v === undefined ? null : { v };
      }
    }
  };
  const calls = new Map<string, PlannedCall>();
  let total = 0;
  let foreseen = 0;
  for (const cell of cells) {
    for (const call of linenCalls(cell.formula)) {
      if (!isLinenFunction(call.name)) continue;
      total++;
      const args = call.args?.map((a) => resolve(a, cell.sheet));
      if (!args || args.some((a) => a === null)) continue;
      foreseen++;
      const planned = { name: call.name, args: args.map((a) => a!.v) };
      const key = JSON.stringify([planned.name, ...planned.args.map(dedupeKey)]);
      calls.set(key, planned);
    }
  }
  return { calls: [...calls.values()], foreseen, total };
}

/** Dates (from this runtime or the sheet's) by their instant, so equal calls are planned once. */
const dedupeKey = (v: unknown) => (isDate(v) ? `@${v.getTime()}` : v);

export interface RefreshOutcome {
  /** done: new values everywhere; partial: continues next run; failed: nothing changed. */
  status: 'done' | 'partial' | 'failed';
  /** Formulas rewritten (done) or found. */
  formulas: number;
  /** Calls whose listings the run fetched ahead, of all LINEN_ calls. */
  foreseen: number;
  calls: number;
  /** Listings fetched by this run. */
  fetched: number;
  /** One sentence for the status line and the menu. */
  message: string;
}

export interface RefreshOptions {
  /** Epoch ms: no new round of requests starts after this. */
  deadline: number;
  /**
   * Fetch ahead with this execution's key. Off, a refresh only starts a new generation and rewrites the formulas
   * (each cell then fetches for itself, with the owner's key): what a person whose key is not the owner's gets.
   */
  warm: boolean;
}

/** The generation a run fills: the pending one when young enough, else a new one (remembered as pending). */
function runGeneration(props: GoogleAppsScript.Properties.Properties): string {
  try {
    const p = JSON.parse(props.getProperty(PROP_PENDING_REFRESH) ?? 'null') as {
      generation: string;
      started: number;
    } | null;
    if (p && typeof p.generation === 'string' && Date.now() - p.started < PENDING_MAX_AGE_MS) return p.generation;
  } catch {
    // unreadable: start afresh
  }
  const generation = `r${Date.now()}`;
  props.setProperty(PROP_PENDING_REFRESH, JSON.stringify({ generation, started: Date.now() }));
  return generation;
}

/** Make `generation` current and run every LINEN_ formula again. */
function finish(props: GoogleAppsScript.Properties.Properties, generation: string, cells: readonly LinenCell[]): void {
  props.setProperty(PROP_GENERATION, generation);
  props.deleteProperty(PROP_PENDING_REFRESH);
  recalculate(cells);
}

export function refreshSpreadsheet(o: RefreshOptions): RefreshOutcome {
  const ss = SpreadsheetApp.getActiveSpreadsheet();
  const props = documentProperties();
  const cells = linenCells(ss);
  const base = { formulas: cells.length, foreseen: 0, calls: 0, fetched: 0 };
  const failed = (message: string): RefreshOutcome => ({ ...base, status: 'failed', message });
  if (!props) return failed('This spreadsheet has no document properties to keep a refresh in.');
  if (!o.warm) {
    finish(props, `r${Date.now()}`, cells);
    return {
      ...base,
      status: 'done',
      message: `Recalculated ${cells.length} Linen formulas; each fetches fresh data.`,
    };
  }
  const settings = readSettings();
  const cache = documentCache();
  if (!settings.apiKey) return failed(missingKeyMessage());
  if (!cache) return failed('The refresh ran outside the spreadsheet (no document cache); nothing was changed.');
  const keyHash = sha256(settings.apiKey);
  const other = otherKeyReason(keyHash, cache);
  if (other) return failed(other);

  const generation = runGeneration(props);
  const { calls, foreseen, total } = plannedCalls(ss, cells, settings.sheetTimeZone);
  const counted = { ...base, foreseen, calls: total };
  const scope = { baseUrl: settings.baseUrl, keyHash, generation, deadline: o.deadline };
  let outcome: ReturnType<typeof warmListings>;
  try {
    const api = makeApi(settings, settings.apiKey, Math.max(1_000, o.deadline - Date.now()));
    outcome = warmListings(calls, { cache, scope, api, deadline: o.deadline });
  } catch (e) {
    outcome = { complete: false, fetched: 0, failure: e };
  }
  const withFetched = { ...counted, fetched: outcome.fetched };
  const outOfTime = Date.now() >= o.deadline - 5_000;
  if (outcome.failure !== undefined && !outOfTime) {
    const why = sheetsMessage(outcome.failure, [settings.apiKey]);
    return { ...withFetched, status: 'failed', message: `${why} The previous values were kept.` };
  }
  if (!outcome.complete) {
    return {
      ...withFetched,
      status: 'partial',
      message: `Fetched ${outcome.fetched} listings before the time ran out; the next run continues, and the previous values stay until it completes.`,
    };
  }
  finish(props, generation, cells);
  return {
    ...withFetched,
    status: 'done',
    message: `Refreshed ${cells.length} Linen formulas (${outcome.fetched} listings fetched).`,
  };
}
