/**
 * Who may see accounting answers where. Accounting answers are the balance, invoices, purchase-order budgets,
 * invoice PDFs and the receivables and budgets digests. In multi-workspace mode they appear only in the
 * channels an admin allowed, and in direct messages only when an admin said so; refused, the command answers
 * why in one sentence.
 */
import type { Command } from '../answers/grammar.ts';
import { commandWords, type Rich, r } from '../content/rich.ts';
import { DIGEST_KINDS, type DigestKinds } from '../digests/kinds/index.ts';
import type { Surface } from '../surface.ts';
import type { AccountingPolicy, Place } from './place-linen.ts';

const ACCOUNTING_COMMANDS = new Set<Command['kind']>(['balance', 'invoices', 'po']);
/**
 * Whether a digest kind is an accounting one: as its module declares (`access`). A kind the registry does not know
 * counts as one, so that no digest appears where accounting answers may not.
 */
export function isAccountingDigest(kind: string, kinds: DigestKinds = DIGEST_KINDS): boolean {
  return (kinds.get(kind)?.access ?? 'accounting') === 'accounting';
}

/** Whether a command shows accounting data where it is typed (digests are checked by their kind). */
export function showsAccounting(cmd: Command): boolean {
  return ACCOUNTING_COMMANDS.has(cmd.kind);
}

/** Null when accounting answers may appear in the place; otherwise the one sentence saying why not. */
export function accountingRefusal(policy: AccountingPolicy, place: Place, surface: Surface): Rich | null {
  if (policy === 'anywhere') return null;
  if (place.privateChat) {
    return policy.directMessages
      ? null
      : r`Accounting answers are not shown in direct messages here; ${surface.anAdmin} can allow them with ${commandWords('access accounting dms on')}.`;
  }
  if (policy.channels.includes(place.channelId)) return null;
  return r`Accounting answers are not shown in this channel; ${surface.anAdmin} can allow them here with ${commandWords('access accounting allow')}.`;
}
