/// <reference types="google-apps-script" />
/**
 * The add-on menu, the settings dialog and "Refresh data". These run as the person using the menu (not as
 * a custom function), so they may write properties and show UI.
 */
import { maskKey, redact } from '../../shared/redact.ts';
import { makeClient } from './context.ts';
import { showDialog } from './dialog.ts';
import { defaultBaseUrl, documentProperties, PROP_BASE_URL, PROP_KEY, readSettings, sha256 } from './gas.ts';
import { sheetsMessage } from './messages.ts';
import { refreshSpreadsheet } from './refresh.ts';
import { RUN_MS, scheduleCaption, showScheduleDialog } from './schedule.ts';
import { REPORT_MENU, showReportDialog } from './templates.ts';
import { otherKeyReason } from './whose-key.ts';

/**
 * The menu. In AuthMode.NONE (the add-on installed but not enabled in this document) nothing may be read, so
 * the Auto-refresh item gets its plain caption; otherwise it shows the schedule, whose key, and a failure.
 */
export function onOpen(e?: { authMode?: unknown }): void {
  const ui = SpreadsheetApp.getUi();
  const reports = ui.createMenu('Insert report');
  for (const [item, fn] of REPORT_MENU) reports.addItem(item, fn);
  let caption = 'Auto-refresh...';
  if (e?.authMode !== ScriptApp.AuthMode.NONE) {
    try {
      caption = scheduleCaption();
    } catch {
      // no access to the document's properties: the plain caption
    }
  }
  ui.createAddonMenu()
    .addItem('Set API key...', 'linenShowKeyDialog')
    .addItem('Set API address...', 'linenShowAddressDialog')
    .addSeparator()
    .addItem('Refresh data', 'linenRefreshData')
    .addItem(caption, 'linenShowSchedule')
    .addItem('Record history...', 'linenShowHistory')
    .addSubMenu(reports)
    .addItem('Formula builder', 'linenShowBuilder')
    .addSeparator()
    .addItem('Help', 'linenShowHelp')
    .addToUi();
}

function showSettings(focus: 'key' | 'address', title: string): void {
  showDialog('Settings', title, [480, 460], { LINEN_FOCUS: focus });
}

export function linenShowKeyDialog(): void {
  showSettings('key', 'Linen API key');
}

export function linenShowAddressDialog(): void {
  showSettings('address', 'Linen API address');
}

export function linenShowSchedule(): void {
  showScheduleDialog('refresh');
}

export function linenShowHistory(): void {
  showScheduleDialog('history');
}

export const linenReportFillRate = () => showReportDialog('fillrate');
export const linenReportAging = () => showReportDialog('aging');
export const linenReportShortfalls = () => showReportDialog('shortfalls');
export const linenReportTickets = () => showReportDialog('tickets');
export const linenReportHistory = () => showReportDialog('history');

export function linenShowHelp(): void {
  showDialog('Help', 'Linen Connect help', [640, 560]);
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
    throw new Error(sheetsMessage(e, [key]).replace(/ set a valid one with .*$/, ' check it and paste it again.'));
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
 * "Refresh data": every LINEN_ formula runs again with fresh data. With the key the formulas use (the owner's),
 * the listings are fetched first under a new cache generation and the formulas rewritten only when all are
 * there (refresh.ts); for anyone else, a new generation and the rewrite, and each cell fetches for itself.
 */
export function linenRefreshData(): number {
  const settings = readSettings();
  const cache = CacheService.getDocumentCache();
  const warm = Boolean(settings.apiKey && cache && !otherKeyReason(sha256(settings.apiKey), cache));
  const outcome = refreshSpreadsheet({ warm, deadline: Date.now() + RUN_MS });
  SpreadsheetApp.getActiveSpreadsheet().toast(outcome.message, 'Linen Connect');
  return outcome.status === 'done' ? outcome.formulas : 0;
}
