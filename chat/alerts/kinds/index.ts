/**
 * The alert kinds, one module each: the engine, the `alert` command, help and metrics derive from this list and
 * dispatch through it.
 */
import { budgetKind } from './budget.ts';
import { overdueKind } from './overdue.ts';
import { parMetKind } from './parmet.ts';
import { shortKind } from './short.ts';
import { signalKind } from './signal.ts';
import { ticketKind } from './ticket.ts';

export const ALERT_KINDS = [shortKind, signalKind, ticketKind, overdueKind, budgetKind, parMetKind] as const;

export type AnyAlertKind = (typeof ALERT_KINDS)[number];
export type AlertKindName = AnyAlertKind['name'];

const BY_WORD = new Map<string, AnyAlertKind>(ALERT_KINDS.flatMap((k) => k.words.map((w) => [w, k] as const)));

/** The kind a word names (`short`, `shortage`, `Signals`), or undefined. */
export function alertKindByWord(word: string): AnyAlertKind | undefined {
  return BY_WORD.get(word.trim().toLowerCase());
}
