/**
 * Who may see accounting answers where. Accounting answers are the balance, invoices, purchase-order budgets,
 * invoice PDFs and the receivables and budgets digests. In multi-workspace mode they appear only in the
 * channels an admin allowed, and in direct messages only when an admin said so; refused, the command answers
 * why in one sentence.
 */
import type { Command } from '../answers/grammar.ts';
import type { DigestKind } from '../digests/storage/types.ts';
import { isDirectMessage } from './connection.ts';
import type { AccountingPolicy } from './place-linen.ts';

const ACCOUNTING_COMMANDS = new Set<Command['kind']>(['balance', 'invoices', 'po']);
const ACCOUNTING_DIGESTS = new Set<DigestKind>(['receivables', 'budgets']);

export function isAccountingDigest(kind: DigestKind): boolean {
  return ACCOUNTING_DIGESTS.has(kind);
}

/** Whether a command shows accounting data where it is typed (digests are checked by their kind). */
export function showsAccounting(cmd: Command): boolean {
  return ACCOUNTING_COMMANDS.has(cmd.kind);
}

/** Null when accounting answers may appear in `channelId`; otherwise the one sentence saying why not. */
export function accountingRefusal(policy: AccountingPolicy, channelId: string): string | null {
  if (policy === 'anywhere') return null;
  if (isDirectMessage(channelId)) {
    return policy.directMessages
      ? null
      : 'Accounting answers are not shown in direct messages here; a workspace admin can allow them with /linen access accounting dms on.';
  }
  if (policy.channels.includes(channelId)) return null;
  return 'Accounting answers are not shown in this channel; a workspace admin can allow them here with /linen access accounting allow.';
}
