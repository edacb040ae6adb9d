/// <reference types="google-apps-script" />
/**
 * Whose API key an execution uses. Cells run with the spreadsheet owner's key; a menu, sidebar or dialog with
 * the key of the person at the keyboard; a trigger with its creator's. A refresh run warms the cache under its
 * own key's digest, so it only helps the cells when its key is theirs.
 */
import { CELLS_KEY } from './cache.ts';
import { MENU } from './messages.ts';

/** The spreadsheet owner's email; null in a shared drive (no owner) or when Google withholds it. */
export function ownerEmail(): string | null {
  try {
    return SpreadsheetApp.getActiveSpreadsheet()?.getOwner()?.getEmail() || null;
  } catch {
    return null;
  }
}

/** The email of the person this execution runs as (a trigger's creator); null when Google withholds it. */
export function myEmail(): string | null {
  try {
    return Session.getEffectiveUser().getEmail() || null;
  } catch {
    return null;
  }
}

/**
 * Why this execution's key is not the one the formulas use, or null when it is as far as can be told: the
 * owner is someone else, or (without an owner to compare, in a shared drive) the cells last fetched with a
 * key of another digest.
 */
export function otherKeyReason(keyHash: string, cache: GoogleAppsScript.Cache.Cache): string | null {
  const owner = ownerEmail();
  const me = myEmail();
  if (owner && me && owner.toLowerCase() !== me.toLowerCase()) {
    return `Formulas use the key of the spreadsheet's owner, ${owner}, not ${me}'s: ${owner} turns on auto-refresh in ${MENU} > Auto-refresh...`;
  }
  let cells: string | null = null;
  try {
    cells = cache.get(CELLS_KEY);
  } catch {
    cells = null;
  }
  if (!owner && cells && cells !== keyHash) {
    return `Formulas in this spreadsheet use another API key than the one saved by ${me ?? 'the person who turned auto-refresh on'}: the person whose key the formulas use turns on auto-refresh.`;
  }
  return null;
}
