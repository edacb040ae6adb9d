/// <reference types="google-apps-script" />
/**
 * Daily history: one row per customer and day in the sheet `Linen history`, written as values (a snapshot
 * must never recalculate), so people can chart them. The day's listings are independent of each other, so
 * their first pages go out in one `fetchAll`. Recording a day again replaces that day's rows: no day is ever
 * there twice.
 */

import { isDate } from '../../shared/cells/args.ts';
import { addDays, dayInZone } from '../../shared/dates.ts';
import {
  type BalanceRow,
  type Customer,
  type DailyDeliveryRow,
  type InventorySignal,
  type LinenApiSync,
  type Operation,
  PermissionDeniedError,
  type QualityTicket,
  runSyncBatch,
  type Settled,
  SHORTFALL_KINDS,
} from '../../shared/index.ts';
import { fillRateTotals } from '../../shared/reports/fill-rate.ts';
import { OPEN_TICKET_STATUSES } from '../../shared/reports/tickets.ts';
import { makeClient } from './context.ts';
import { sheetDay } from './format.ts';
import { readSettings, sleep, urlFetchAllTransport } from './gas.ts';
import { missingKeyMessage, sheetsMessage } from './messages.ts';

export const HISTORY_SHEET = 'Linen history';

/** The columns, in order; their meaning is documented in apps-script/README.md. Never reorder: charts read them. */
export const HISTORY_COLUMNS = [
  ['Date', 'yyyy-mm-dd'],
  ['Customer', '@'],
  ['Customer id', '@'],
  ['Fill rate (7 days)', '0.0%'],
  ['Par met (7 days)', '0.0%'],
  ['Open shortfall signals', '0'],
  ['Open balance', '#,##0.00'],
  ['61+ days', '#,##0.00'],
  ['Currency', '@'],
  ['Open tickets', '0'],
] as const;

export interface HistoryOutcome {
  status: 'done' | 'failed';
  message: string;
  /** The organization-local day recorded. */
  day: string;
}

type Cell = string | number | boolean | Date;

/** Fill rate and par met of one customer's rows, as the LINEN_FILLRATE and LINEN_PARMET cells compute them. */
function fillFigures(rows: readonly DailyDeliveryRow[]): { fill: Cell; met: Cell } {
  const totals = fillRateTotals(rows);
  return { fill: totals.fillRate ?? '', met: totals.parMet ?? '' };
}

/**
 * The listings of one day's rows: those that do not depend on each other in one batch, then each customer's
 * tickets (tickets carry no customer, so they are listed per customer) in a second.
 */
function fetchDay(client: LinenApiSync, from: string, to: string, deadline: number): Settled<unknown[]>[] {
  const opts = () => ({ timeBudgetMs: Math.max(1_000, deadline - Date.now()) });
  const first: Operation<unknown[]>[] = [
    client.customers.list().walk(opts()),
    client.deliveries.daily({ from, to }).walk(opts()),
    client.inventory.signals({ status: 'open' }).walk(opts()),
    client.balance.list().walk(opts()),
  ];
  const results = runSyncBatch(first, urlFetchAllTransport, { sleep });
  const customers = results[0]!.ok ? (results[0]!.value as Customer[]) : [];
  const tickets = customers.map((c) => client.qualityTickets.list({ customerId: c.id }).walk(opts()));
  return [...results, ...runSyncBatch(tickets, urlFetchAllTransport, { sleep })];
}

export function recordHistory(o: { deadline: number }): HistoryOutcome {
  const settings = readSettings();
  const now = new Date();
  const day = dayInZone(now, settings.orgTimeZone);
  if (!settings.apiKey) return { status: 'failed', message: missingKeyMessage(), day };
  const secrets = [settings.apiKey];
  // The last 7 complete days: today is still being delivered.
  const from = addDays(day, -7);
  const to = addDays(day, -1);
  let results: Settled<unknown[]>[];
  try {
    const client = makeClient(settings, settings.apiKey, Math.max(1_000, o.deadline - Date.now()));
    results = fetchDay(client, from, to, o.deadline);
  } catch (e) {
    return { status: 'failed', message: `${sheetsMessage(e, secrets)} No history was recorded.`, day };
  }
  // A missing scope only blanks the columns of a scoped listing (deliveries, signals, balances: 1 to 3); any other
  // failure (the key, an outage, a wrong answer, no customers) records nothing.
  const failure = results.find((r, i) => !r.ok && !(r.error instanceof PermissionDeniedError && i >= 1 && i <= 3));
  if (failure && !failure.ok) {
    const why = sheetsMessage(failure.error, secrets);
    return { status: 'failed', message: `${why} No history was recorded.`, day };
  }
  const got = <T>(i: number): T[] | null => {
    const r = results[i]!;
    return r.ok ? (r.value as T[]) : null;
  };
  const customers = got<Customer>(0) ?? [];
  const deliveries = got<DailyDeliveryRow>(1);
  const signals = got<InventorySignal>(2);
  const balances = got<BalanceRow>(3);
  const openTickets = (i: number): Cell => {
    const t = got<QualityTicket>(4 + i);
    return t ? t.filter((x) => (OPEN_TICKET_STATUSES as readonly string[]).includes(x.status)).length : '';
  };

  const zones = { org: settings.orgTimeZone, sheet: settings.sheetTimeZone };
  const date = sheetDay(day, zones);
  const rows: Cell[][] = customers
    .map((c, i) => ({ c, tickets: openTickets(i) }))
    .sort((a, b) => a.c.name.localeCompare(b.c.name))
    .map(({ c, tickets }) => {
      const f = deliveries ? fillFigures(deliveries.filter((r) => r.customer_id === c.id)) : { fill: '', met: '' };
      const shortfalls = signals
        ? signals.filter((s) => s.customer_id === c.id && (SHORTFALL_KINDS as readonly string[]).includes(s.kind))
            .length
        : '';
      const b = balances?.find((x) => x.customer_id === c.id);
      return [
        date,
        c.name,
        c.id,
        f.fill,
        f.met,
        shortfalls,
        b ? b.balance_cents / 100 : balances ? 0 : '',
        b ? b.aging.d61_plus / 100 : balances ? 0 : '',
        b ? b.currency.toUpperCase() : '',
        tickets,
      ];
    });
  writeDay(day, rows, settings.sheetTimeZone);
  const missing = [deliveries ? '' : 'fill rates', balances ? '' : 'balances'].filter(Boolean);
  return {
    status: 'done',
    message: `Recorded ${rows.length} customers for ${day} in "${HISTORY_SHEET}"${missing.length ? ` (no ${missing.join(' or ')}: the key lacks that access)` : ''}.`,
    day,
  };
}

/** Replace `day`'s rows (if any) with `rows`, keeping the sheet in date and customer order. */
function writeDay(day: string, rows: Cell[][], sheetTimeZone: string): void {
  const ss = SpreadsheetApp.getActiveSpreadsheet();
  const width = HISTORY_COLUMNS.length;
  let sheet = ss.getSheetByName(HISTORY_SHEET);
  if (!sheet) {
    sheet = ss.insertSheet(HISTORY_SHEET);
    sheet
      .getRange(1, 1, 1, width)
      .setValues([HISTORY_COLUMNS.map((c) => c[0])])
      .setFontWeight('bold');
    sheet.setFrozenRows(1);
  }
  const last = sheet.getLastRow();
  const dayOf = (v: unknown) => (isDate(v) ? dayInZone(v, sheetTimeZone) : String(v));
  const kept =
    last > 1 ? (sheet.getRange(2, 1, last - 1, width).getValues() as Cell[][]).filter((r) => dayOf(r[0]) !== day) : [];
  const all = [...kept, ...rows].sort(
    (a, b) => dayOf(a[0]).localeCompare(dayOf(b[0])) || String(a[1]).localeCompare(String(b[1])),
  );
  if (last > 1) sheet.getRange(2, 1, last - 1, width).clearContent();
  if (!all.length) return;
  const block = sheet.getRange(2, 1, all.length, width);
  block.setValues(all);
  block.setNumberFormats(all.map(() => HISTORY_COLUMNS.map((c) => c[1])));
}
