/// <reference types="google-apps-script" />
/**
 * Insert report: five report sheets laid out with LINEN_ formulas, formats and a native chart
 * (templates/*.ts). The menu item opens Report.html, where the person picks the customer and the dates; the
 * sheet is built with their key (the customer list and, for the fill-rate grid, the customer's par items),
 * and its formulas then run like any others, with the owner's key.
 */
import { addDays, dayInZone, isIsoDay } from '../../shared/dates.ts';
import type { Customer } from '../../shared/index.ts';
import { Context } from './context.ts';
import { showDialog } from './dialog.ts';
import { HISTORY_SHEET } from './history.ts';
import { sheetsMessage } from './messages.ts';
import { AGING_NOTE, buildAging } from './templates/aging.ts';
import { buildFillRate, FILL_RATE_NOTE, parItems } from './templates/fill-rate.ts';
import { buildHistoryCharts, HISTORY_NOTE } from './templates/history-charts.ts';
import { header, newSheet, type ReportParams } from './templates/layout.ts';
import { buildShortfalls, SHORTFALLS_NOTE } from './templates/shortfalls.ts';
import { buildTickets, TICKETS_NOTE } from './templates/tickets.ts';

interface Template {
  title: string;
  /** The menu item's function. */
  fn: string;
  /** A customer must be chosen (else "All customers" is offered). */
  customerRequired: boolean;
  dated: boolean;
  /** Default window in days back from yesterday. */
  days: number;
  /** The line under the parameters block: what the sheet shows and what to change. */
  note: string;
}

export const TEMPLATES = {
  fillrate: {
    title: 'Fill rate dashboard',
    fn: 'linenReportFillRate',
    customerRequired: true,
    dated: true,
    days: 30,
    note: FILL_RATE_NOTE,
  },
  aging: {
    title: 'A/R aging',
    fn: 'linenReportAging',
    customerRequired: false,
    dated: true,
    days: 0,
    note: AGING_NOTE,
  },
  shortfalls: {
    title: 'Open shortfalls',
    fn: 'linenReportShortfalls',
    customerRequired: false,
    dated: false,
    days: 0,
    note: SHORTFALLS_NOTE,
  },
  tickets: {
    title: 'Ticket tracker',
    fn: 'linenReportTickets',
    customerRequired: false,
    dated: true,
    days: 90,
    note: TICKETS_NOTE,
  },
  history: {
    title: 'History',
    fn: 'linenReportHistory',
    customerRequired: true,
    dated: true,
    days: 90,
    note: HISTORY_NOTE,
  },
} as const satisfies Record<string, Template>;

export type TemplateKind = keyof typeof TEMPLATES;

/** The Insert report submenu: caption and function. */
export const REPORT_MENU = Object.values(TEMPLATES).map((t) => [`${t.title}...`, t.fn] as const);

function kindOf(input: unknown): TemplateKind {
  if (typeof input === 'string' && Object.hasOwn(TEMPLATES, input)) return input as TemplateKind;
  throw new Error('Choose one of the reports in the Insert report menu.');
}

export function showReportDialog(kind: TemplateKind): void {
  showDialog('Report', `Insert report: ${TEMPLATES[kind].title}`, [420, 340], { LINEN_REPORT: kind });
}

export interface ReportOptions {
  kind: TemplateKind;
  title: string;
  customers: { id: string; name: string }[];
  customerRequired: boolean;
  dated: boolean;
  from: string;
  to: string;
}

/** What the dialog offers: the customers this person's key sees and default dates. */
export function linenReportOptions(input: unknown): ReportOptions {
  const kind = kindOf(input);
  const t: Template = TEMPLATES[kind];
  let ctx: Context;
  let customers: Customer[];
  try {
    ctx = new Context();
    customers = ctx.run(ctx.customers());
  } catch (e) {
    throw new Error(sheetsMessage(e, []));
  }
  const yesterday = addDays(dayInZone(new Date(), ctx.settings.orgTimeZone), -1);
  return {
    kind,
    title: t.title,
    customers: customers.map((c) => ({ id: c.id, name: c.name })).sort((a, b) => a.name.localeCompare(b.name)),
    customerRequired: t.customerRequired,
    dated: t.dated,
    from: t.days ? addDays(yesterday, -(t.days - 1)) : '',
    to: t.days ? yesterday : '',
  };
}

/** Build the report sheet; returns its name. */
export function linenInsertReport(input: unknown): { sheet: string } {
  const o = (input && typeof input === 'object' ? input : {}) as Record<string, unknown>;
  const kind = kindOf(o.kind);
  const t: Template = TEMPLATES[kind];
  let ctx: Context;
  let customer: Customer | undefined;
  try {
    ctx = new Context();
    if (o.customer) customer = ctx.run(ctx.customers()).find((c) => c.id === o.customer);
  } catch (e) {
    throw new Error(sheetsMessage(e, []));
  }
  if (o.customer && !customer) throw new Error('That customer is not visible to your key; choose one from the list.');
  if (t.customerRequired && !customer) throw new Error('Choose a customer.');
  const day = (v: unknown, name: string) => {
    const s = typeof v === 'string' ? v.trim() : '';
    if (s === '' && kind === 'aging') return '';
    if (!isIsoDay(s)) throw new Error(`Enter the ${name} date as YYYY-MM-DD.`);
    return s;
  };
  const p: ReportParams = { customer: customer?.name ?? '', from: '', to: '' };
  if (t.dated) {
    p.from = day(o.from, 'from');
    p.to = day(o.to, 'to');
    if (p.from && p.to && p.from > p.to) throw new Error(`The from date (${p.from}) is after the to date (${p.to}).`);
  }
  const ss = SpreadsheetApp.getActiveSpreadsheet();
  if (kind === 'history' && !ss.getSheetByName(HISTORY_SHEET)) {
    throw new Error('There is no history yet: record it first with Record history... in the Linen Connect menu.');
  }
  let items: string[] = [];
  try {
    // What the layout depends on is fetched before the sheet exists: a failure leaves no half-built sheet.
    if (kind === 'fillrate') items = parItems(ctx, customer!);
  } catch (e) {
    throw new Error(sheetsMessage(e, ctx.secrets));
  }
  const sheet = newSheet(ss, customer ? `${t.title}: ${customer.name}` : t.title);
  try {
    header(sheet, `${t.title}: ${p.customer || 'all customers'}`, p, ctx.zones, { dated: t.dated, note: t.note });
    if (kind === 'fillrate') buildFillRate(sheet, customer!, items);
    else if (kind === 'aging') buildAging(sheet, customer ? 1 : ctx.run(ctx.customers()).length);
    else if (kind === 'shortfalls') buildShortfalls(sheet);
    else if (kind === 'tickets') buildTickets(sheet);
    else buildHistoryCharts(sheet, p.customer);
  } catch (e) {
    throw new Error(sheetsMessage(e, ctx.secrets));
  }
  sheet.activate();
  return { sheet: sheet.getName() };
}
