/// <reference types="google-apps-script" />
/**
 * What every report sheet shares: a new sheet with a free name, the title, and the parameters block (customer
 * in B2, from in B3, to in B4) that the sheet's formulas refer to, so a person changes the customer or the
 * dates in one place and every formula follows (and the scheduled refresh reads them from there too).
 */
import type { Zones } from '../../../shared/cells/values.ts';
import { sheetDay } from '../format.ts';

export type Sheet = GoogleAppsScript.Spreadsheet.Sheet;

export interface ReportParams {
  /** The customer's name, or '' for all customers. */
  customer: string;
  from: string;
  to: string;
}

export const CUSTOMER = '$B$2';
export const FROM = '$B$3';
export const TO = '$B$4';
/** The first row below the header block. */
export const BODY_ROW = 7;

export const PERCENT = '0.0%';
export const MONEY = '#,##0.00';
export const DAY = 'yyyy-mm-dd';

/** A new sheet named `title`, or `title (2)`, `(3)`... when taken; it becomes the active sheet. */
export function newSheet(ss: GoogleAppsScript.Spreadsheet.Spreadsheet, title: string): Sheet {
  let name = title.slice(0, 90);
  for (let n = 2; ss.getSheetByName(name); n++) name = `${title.slice(0, 85)} (${n})`;
  return ss.insertSheet(name);
}

/** Title, parameters and a one-line note; `dated` adds the from/to rows. */
export function header(
  sheet: Sheet,
  title: string,
  p: ReportParams,
  zones: Zones,
  o: { dated: boolean; note: string },
) {
  sheet.getRange('A1').setValue(title).setFontWeight('bold');
  const rows: (string | GoogleAppsScript.Base.Date | unknown)[][] = [['Customer', p.customer]];
  if (o.dated) rows.push(['From', sheetDay(p.from, zones)], ['To', sheetDay(p.to, zones)]);
  sheet.getRange(2, 1, rows.length, 2).setValues(rows);
  sheet.getRange(2, 1, rows.length, 1).setFontWeight('bold');
  if (o.dated) sheet.getRange('B3:B4').setNumberFormat(DAY);
  sheet.getRange(5, 1).setValue(o.note);
  sheet.getRange(5, 1).setFontColor('#5f6368');
}

/** A bold header row of labels. */
export function labels(sheet: Sheet, row: number, column: number, values: string[]): void {
  sheet.getRange(row, column, 1, values.length).setValues([values]).setFontWeight('bold');
}

/** A native chart anchored at `row`, `column`, over `ranges` (A1 on this sheet), with Google Charts options. */
export function chart(
  sheet: Sheet,
  o: {
    type: GoogleAppsScript.Charts.ChartType;
    ranges: string[];
    row: number;
    column: number;
    options: Record<string, unknown>;
  },
): void {
  let b = sheet.newChart().setChartType(o.type).setNumHeaders(1).setPosition(o.row, o.column, 0, 0);
  for (const a1 of o.ranges) b = b.addRange(sheet.getRange(a1));
  for (const [k, v] of Object.entries(o.options)) b = b.setOption(k, v);
  sheet.insertChart(b.build());
}

/** Append conditional format rules (setConditionalFormatRules replaces them all, so keep the existing ones). */
export function addRules(sheet: Sheet, rules: GoogleAppsScript.Spreadsheet.ConditionalFormatRule[]): void {
  sheet.setConditionalFormatRules([...sheet.getConditionalFormatRules(), ...rules]);
}
