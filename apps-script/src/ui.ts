/// <reference types="google-apps-script" />
/**
 * The add-on menu, the settings dialog and "Refresh data". These run as the person using the menu (not as
 * a custom function), so they may write properties and show UI.
 */
import { redact } from '../../shared/index.ts';
import { makeClient } from './context.ts';
import { defaultBaseUrl, documentProperties, PROP_BASE_URL, PROP_GENERATION, PROP_KEY, readSettings } from './gas.ts';
import { cellMessage } from './messages.ts';

export function onOpen(): void {
  SpreadsheetApp.getUi()
    .createAddonMenu()
    .addItem('Set API key...', 'linenShowKeyDialog')
    .addItem('Set API address...', 'linenShowAddressDialog')
    .addSeparator()
    .addItem('Refresh data', 'linenRefreshData')
    .addItem('Help', 'linenShowHelp')
    .addToUi();
}

function showSettings(focus: 'key' | 'address', title: string): void {
  const html = HtmlService.createHtmlOutputFromFile('Settings')
    .append(`<script>window.LINEN_FOCUS = ${JSON.stringify(focus)};</script>`)
    .setWidth(480)
    .setHeight(460);
  SpreadsheetApp.getUi().showModalDialog(html, title);
}

export function linenShowKeyDialog(): void {
  showSettings('key', 'Linen API key');
}

export function linenShowAddressDialog(): void {
  showSettings('address', 'Linen API address');
}

export function linenShowHelp(): void {
  SpreadsheetApp.getUi().showModalDialog(
    HtmlService.createHtmlOutputFromFile('Help').setWidth(640).setHeight(560),
    'Linen Connect help',
  );
}

/** `lk_live_demo_all_access` -> `lk_live_…cess`: enough to recognise a key, never enough to use it. */
export function maskKey(key: string | null): string {
  return key ? `${key.slice(0, 8)}…${key.slice(-4)}` : '';
}

export interface DialogState {
  maskedKey: string;
  baseUrl: string;
  defaultBaseUrl: string;
  timeZone: string;
}

export function linenDialogState(): DialogState {
  const s = readSettings();
  return {
    maskedKey: maskKey(s.apiKey),
    baseUrl: s.baseUrl,
    defaultBaseUrl: defaultBaseUrl(),
    timeZone: s.orgTimeZone,
  };
}

/** Ask the API for one customer with this key and address; throws a sentence when that fails. */
function check(key: string, baseUrl: string): void {
  const settings = { ...readSettings(), baseUrl };
  try {
    makeClient(settings, key, 20_000).customers.list().page({ limit: 1 });
  } catch (e) {
    throw new Error(cellMessage(e, [key]).replace(/ set a valid one with .*$/, ' check it and paste it again.'));
  }
}

export function linenSaveApiKey(input: unknown): { maskedKey: string } {
  const key = typeof input === 'string' ? input.trim() : '';
  if (key === '') throw new Error('Paste the API key first.');
  if (/\s/.test(key)) throw new Error('The key contains spaces or line breaks; paste it again.');
  check(key, readSettings().baseUrl);
  PropertiesService.getUserProperties().setProperty(PROP_KEY, key);
  return { maskedKey: maskKey(key) };
}

export function linenClearApiKey(): void {
  PropertiesService.getUserProperties().deleteProperty(PROP_KEY);
}

export function linenSaveBaseUrl(input: unknown): { baseUrl: string; checked: boolean } {
  const raw = typeof input === 'string' ? input.trim().replace(/\/+$/, '') : '';
  // (Apps Script has no URL class.) https, or http to this machine for a local API; the path ends in /v1.
  const m = /^(https:\/\/[a-z0-9.-]+(?::\d+)?|http:\/\/(?:127\.0\.0\.1|localhost)(?::\d+)?)(\/[^?#\s@]*)?$/i.exec(raw);
  if (!m) throw new Error('Enter an https:// address, e.g. https://api.example.com/v1.');
  if (!/\/v1$/.test(m[2] ?? '')) throw new Error('The address must end with /v1.');
  const baseUrl = raw;
  const key = readSettings().apiKey;
  if (key) {
    try {
      check(key, baseUrl);
    } catch (e) {
      throw new Error(redact(`${e instanceof Error ? e.message : String(e)} The address was not saved.`, [key]));
    }
  }
  documentProperties()?.setProperty(PROP_BASE_URL, baseUrl);
  return { baseUrl, checked: Boolean(key) };
}

/**
 * "Refresh data": a new cache generation (every cached listing stops matching), then every formula using a
 * LINEN_ function is cleared and written back, which makes Sheets run it again (it would otherwise keep the
 * value it has for the same arguments).
 */
export function linenRefreshData(): number {
  documentProperties()?.setProperty(PROP_GENERATION, String(Date.now()));
  const ss = SpreadsheetApp.getActiveSpreadsheet();
  const cells: { range: GoogleAppsScript.Spreadsheet.Range; formula: string }[] = [];
  for (const sheet of ss.getSheets()) {
    const range = sheet.getDataRange();
    const formulas = range.getFormulas();
    for (const [r, row] of formulas.entries()) {
      for (const [c, f] of row.entries()) {
        if (/\bLINEN_[A-Z_]+\s*\(/i.test(f))
          cells.push({ range: sheet.getRange(range.getRow() + r, range.getColumn() + c), formula: f });
      }
    }
  }
  for (const cell of cells) cell.range.setFormula('');
  SpreadsheetApp.flush();
  for (const cell of cells) cell.range.setFormula(cell.formula);
  ss.toast(`Recalculated ${cells.length} Linen formulas with fresh data.`, 'Linen Connect');
  return cells.length;
}
