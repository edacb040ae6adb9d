/**
 * The Sheets wording of the cells' sentences (shared/cells/messages.ts): a remedy names the add-on's menu.
 */
import { cellMessage } from '../../shared/cells/messages.ts';

export const MENU = 'Extensions > Linen Connect';
const SET_KEY = `${MENU} > Set API key...`;

export function missingKeyMessage(): string {
  return `No Linen API key is set for this spreadsheet: its owner sets one with ${SET_KEY}`;
}

/** The sentence `#ERROR!` shows for `e`. */
export const sheetsMessage = (e: unknown, secrets: readonly string[]): string => cellMessage(e, secrets, SET_KEY);
