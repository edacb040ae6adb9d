/// <reference types="office-runtime" />
/**
 * Where the add-in keeps its settings: `OfficeRuntime.storage`, the add-in's own key-value store. It is per user
 * and per machine (another computer, or another Windows or Mac account, has its own), shared by the task pane
 * and the functions, and not encrypted. Never the workbook: a key saved there would travel with the file.
 */

export const KEY_ITEM = 'LINEN_API_KEY';
export const TIMEZONE_ITEM = 'LINEN_TIMEZONE';

export interface Saved {
  apiKey: string | null;
  /** The organization's timezone, as saved (null: the machine's). */
  timeZone: string | null;
}

const clean = (v: string | null | undefined) => (typeof v === 'string' && v.trim() !== '' ? v.trim() : null);

export async function readSaved(): Promise<Saved> {
  const items = await OfficeRuntime.storage.getItems([KEY_ITEM, TIMEZONE_ITEM]);
  return { apiKey: clean(items[KEY_ITEM]), timeZone: clean(items[TIMEZONE_ITEM]) };
}

export async function save(saved: { apiKey: string; timeZone: string }): Promise<void> {
  await OfficeRuntime.storage.setItems({ [KEY_ITEM]: saved.apiKey, [TIMEZONE_ITEM]: saved.timeZone });
}

export async function forgetKey(): Promise<void> {
  await OfficeRuntime.storage.removeItems([KEY_ITEM]);
}

/** The machine's timezone: the default organization timezone. */
export const machineTimeZone = (): string => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
