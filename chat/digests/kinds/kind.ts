/**
 * What a scheduled digest kind declares, all in its one module (`shortfall.ts`, `receivables.ts`, `tickets.ts`,
 * `budgets.ts`): the words that name it, who may see it, its help, default cadence and option words, how listings
 * describe a subscription of it, the listings it reads and its builder. The registry (`registry.ts`, the list in
 * `index.ts`) is all the rest of the digests know of a kind: the subscribe arguments, the digest answers, the
 * access rules, the usage and help, the store's known kinds and the runner are derived from it.
 */
import type { Customer } from '../../../shared/index.ts';
import type { AccessClass } from '../../access-class.ts';
import type { Digest } from '../digest.ts';
import type { DigestOptions, Severity, ShownSignal, Subscription } from '../storage/types.ts';
import type { ListingName, Listings } from './listings.ts';

/**
 * Who may see a kind's digests. A digest is posted for everyone in its channel, so no kind is for admins alone;
 * `accounting` digests go only where accounting answers may appear (`connections/access.ts`).
 */
export type DigestAccess = Exclude<AccessClass, 'admins'>;

/** What one of a kind's option words sets on a new subscription. */
export interface OptionSetting {
  /** The least severity shown (the shortfall kind's; kept in a column of its own). */
  minSeverity?: Severity;
  /** Kept in the subscription's options, for the kind's builder and `describe` to read. */
  options?: DigestOptions;
}

/** A kind's own words in `digest subscribe` (`high`, `25%`, `45d`), beside the ones every kind takes. */
export interface KindOptions {
  /**
   * What one word sets, or null when it is none of this kind's. Throws ArgsError (one sentence) for a word of this
   * kind's form with a value it cannot take (`250%`). Every kind's words are read whatever kind is subscribed, so
   * that one given to the wrong kind is named in `notFor`'s sentence rather than taken for a customer's name.
   */
  read(word: string): OptionSetting | null;
  /** The sentence refusing this kind's option words (`words`, as typed) in a digest of another `kind`. */
  notFor(words: readonly string[], kind: string): string;
}

/** What a kind's builder is given for one run. */
export interface DigestInput<Reads extends ListingName, Snapshot> {
  subscription: Subscription;
  /** The key's customers (names, and groups with their locations). */
  customers: readonly Customer[];
  /** The org-local day of the run, and the day before it. */
  today: string;
  yesterday: string;
  /** The heading's date, e.g. `Thu 5 Nov`. */
  title: string;
  /** What the subscription's previous digest showed (null: there was none; its runs all hold this kind's). */
  previous: readonly ShownSignal<Snapshot>[] | null;
  /** When that previous digest was due. */
  previousAt: Date | null;
  /** The listings the kind declared in `reads`, each fetched once per key per tick and shared. */
  read: Pick<Listings, Reads>;
}

/** One scheduled digest kind. Every field is required but `options` (kinds that take no option words of their own). */
export interface DigestKindModule<Name extends string, Reads extends ListingName, Snapshot> {
  /** Stored in `digest_subscriptions.kind`: never renamed once subscriptions hold it. */
  name: Name;
  /** The words that name it in `digest subscribe <word>` and `digest preview <word>`, lowercase. */
  words: readonly string[];
  access: DigestAccess;
  help: {
    /** What it posts, a phrase of the `digest` command's description: `receivables (weekly: new overdue …)`. */
    description: string;
    /** The syntax of its option words in the command's usage: `[low|medium|high]`. */
    options?: string;
    /** Commands showing it, for the `digest` command's examples. */
    examples?: readonly string[];
  };
  /** `daily`, `weekdays`, `mon`, …: the cadence of a subscription that names none. */
  defaultCadence: string;
  options?: KindOptions;
  /**
   * How `digest list` and `subscribe` describe a subscription: `kind` before its schedule (`budgets digest (under
   * 20% left or expiring within 30 days)`; empty for a kind whose lines name none) and `settings` after its
   * customers (`, high severity and above, all-clear posts`).
   */
  describe(sub: Subscription): { kind: string; settings: string };
  /** The listings its builder reads: the runner fetches only these, once per key per tick. */
  reads: readonly Reads[];
  /** The digest of one run, built purely from its input. */
  build(input: DigestInput<Reads, Snapshot>): Digest;
}

/**
 * A kind as a registry holds it, whatever it reads and remembers (a method's parameter is compared both ways,
 * so every kind's builder fits the one the runner calls).
 */
export type RegisteredDigestKind = Omit<DigestKindModule<string, ListingName, unknown>, 'build'> & {
  build(input: DigestInput<never, unknown>): Digest;
};

/** Declares a kind: its module's one export, typed so that a kind missing a field does not compile. */
export function defineDigestKind<const Name extends string, const Reads extends ListingName, Snapshot = unknown>(
  kind: DigestKindModule<Name, Reads, Snapshot>,
): DigestKindModule<Name, Reads, Snapshot> {
  return kind;
}

/** `, posts when nothing changed`: the usual meaning of `all-clear` in a listing. */
export const postsWhenUnchanged = (sub: Pick<Subscription, 'allClear'>): string =>
  sub.allClear ? ', posts when nothing changed' : '';
