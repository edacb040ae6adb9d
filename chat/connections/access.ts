/**
 * Who may see which answer where, by the command's access class (access-class.ts, declared by every command module):
 * help, the connection's description and operational answers anywhere the bot answers; accounting answers (balance,
 * invoices, purchase-order budgets, invoice PDFs, and the receivables and budgets digests) only in the channels an
 * admin allowed, and in direct messages only when an admin said so (in multi-workspace mode); changes to the
 * connection only for its admins. Refused, the command answers why in one sentence.
 */
import type { AccessClass } from '../access-class.ts';
import { channel, commandWords, line, type Rich, r } from '../content/rich.ts';
import { DIGEST_KINDS, type DigestKinds } from '../digests/kinds/index.ts';
import type { Surface } from '../surface.ts';
import type { AccountingPolicy, Place } from './place-linen.ts';

/**
 * Whether a digest kind is an accounting one: as its module declares (`access`). A kind the registry does not know
 * counts as one, so that no digest appears where accounting answers may not.
 */
export function isAccountingDigest(kind: string, kinds: DigestKinds = DIGEST_KINDS): boolean {
  return (kinds.get(kind)?.access ?? 'accounting') === 'accounting';
}

/**
 * Null when accounting answers may appear in the place; otherwise the one sentence saying why not. `typedIn`: the
 * channel the command was typed in, when what it sets up posts in `place` (a digest or an alert for another
 * channel): the sentence then names the channel refused.
 */
export function accountingRefusal(
  policy: AccountingPolicy,
  place: Place,
  surface: Surface,
  typedIn?: string,
): Rich | null {
  if (policy === 'anywhere') return null;
  if (place.privateChat) {
    return policy.directMessages
      ? null
      : r`Accounting answers are not shown in direct messages here; ${surface.anAdmin} can allow them with ${commandWords('access accounting dms on')}.`;
  }
  if (policy.channels.includes(place.channelId)) return null;
  if (typedIn !== undefined && typedIn !== place.channelId)
    return r`Accounting answers are not shown in ${channel(place.channelId)}; ${surface.anAdmin} can allow them there with ${commandWords('access accounting allow')}, typed in that channel.`;
  return r`Accounting answers are not shown in this channel; ${surface.anAdmin} can allow them here with ${commandWords('access accounting allow')}.`;
}

/** What deciding an access class needs of the place and the person. */
export interface AccessCheck {
  place: Place;
  surface: Surface;
  /** Where the organization lets accounting answers appear (read only when an answer is accounting). */
  accounting(): Promise<AccountingPolicy>;
  /** Whether the person is one of the admins the platform names; absent where it names none (one key for all). */
  isAdmin?: (() => Promise<boolean>) | undefined;
  /** The platform's sentence refusing someone who is not. */
  adminsOnly?: string | undefined;
}

/** Null when an answer of this class may be shown to the person in the place; otherwise the sentence saying why not. */
export async function accessRefusal(access: AccessClass, check: AccessCheck): Promise<Rich | null> {
  switch (access) {
    case 'everyone':
    case 'operations':
      return null;
    case 'accounting':
      return accountingRefusal(await check.accounting(), check.place, check.surface);
    case 'admins':
      if (check.isAdmin && (await check.isAdmin())) return null;
      return [line(check.adminsOnly ?? `Only ${check.surface.admins} can do that.`)];
  }
}
