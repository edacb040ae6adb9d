/**
 * What the alert kinds share: the customers an alert covers (a group stands for itself and its locations), the
 * words after a kind's word read as numbers, percentages and a customer (with a place after a quoted one), and the
 * one message a check posts, built the same way for every kind within the content limits.
 */
import type { Customer } from '../../../shared/index.ts';
import {
  type Action,
  actions,
  type Content,
  type Field,
  fields,
  note,
  type Part,
  text,
  title,
} from '../../content/document.ts';
import { moreLine } from '../../content/format.ts';
import { CONTENT_LIMITS, chunkLines, measure, truncateRich } from '../../content/limits.ts';
import { line, plainText, type Rich } from '../../content/rich.ts';
import { customerScope } from '../../digests/kinds/customer-scope.ts';
import type { AlertReads, AlertScope, Occurrence, ParsedAlert, Token } from '../kind.ts';

// ---------------------------------------------------------------------------------------------------------------
// Scope

/**
 * Whether a record's customer is one the alert covers: every customer when it names none; otherwise the ones it
 * names, and with a group the locations its name suggests (as digests decide it).
 */
export function inScope(
  scope: Pick<AlertScope<unknown>, 'customerIds'>,
  customers: readonly Customer[],
): (customerId: string | null) => boolean {
  return customerScope({ customerIds: [...scope.customerIds] }, customers);
}

/** The customers' listing, read only when the scope needs it (a named customer may be a group). */
export async function scopeOf(
  scope: Pick<AlertScope<unknown>, 'customerIds'>,
  reads: Pick<AlertReads, 'customers'>,
): Promise<(customerId: string | null) => boolean> {
  if (scope.customerIds.length === 0) return () => true;
  return inScope(scope, await reads.customers());
}

export const nameOf = (names: ReadonlyMap<string, string>, id: string | null): string =>
  id === null ? 'every customer' : (names.get(id) ?? id);

/** `Mercy General Hospital`, `Harborview Hotel and St. Luke's Medical Center`, `every customer`. */
export function scopeName(scope: Pick<AlertScope<unknown>, 'customerIds'>, names: ReadonlyMap<string, string>): string {
  const shown = scope.customerIds.map((id) => line(nameOf(names, id)));
  if (shown.length === 0) return 'every customer';
  if (shown.length === 1) return shown[0]!;
  return `${shown.slice(0, -1).join(', ')} and ${shown[shown.length - 1]}`;
}

/** The one customer an alert names, for the command that lists what it watches (none: every customer). */
export function onlyCustomer(
  scope: Pick<AlertScope<unknown>, 'customerIds'>,
  names: ReadonlyMap<string, string>,
): string | undefined {
  return scope.customerIds.length === 1 ? nameOf(names, scope.customerIds[0]!) : undefined;
}

/**
 * The customer a message's command asks about: the one customer of what it tells (a group's location rather than
 * the group, which has none of its own), else the one the alert names, else none (every customer).
 */
export function commandCustomer(
  scope: Pick<AlertScope<unknown>, 'customerIds'>,
  customerIds: readonly (string | null)[],
  names: ReadonlyMap<string, string>,
): string | undefined {
  const distinct = [...new Set(customerIds)];
  if (distinct.length === 1 && distinct[0] !== null) return nameOf(names, distinct[0]!);
  return onlyCustomer(scope, names);
}

// ---------------------------------------------------------------------------------------------------------------
// Reading the words

export type ParseResult<Options> = ParsedAlert<Options> | { problem: string };

export const problem = (sentence: string): { problem: string } => ({ problem: sentence });

/** A typed word inside a sentence: on one line, quoted, and short. */
export function typed(text: string): string {
  const one = line(text).replace(/\s+/g, ' ').trim();
  return `“${one.length > 40 ? `${one.slice(0, 39)}…` : one}”`;
}

/** The tokens that say something (a quoted empty name says nothing). */
export const meaningful = (tokens: readonly Token[]): Token[] => tokens.filter((t) => t.text.trim() !== '');

export const isWord = (t: Token | undefined, ...words: string[]): boolean =>
  t !== undefined && !t.quoted && words.includes(t.text.trim().toLowerCase());

/** A whole number as typed (digits only: `1e3`, `5.0`, `-1` are not). */
export function wholeNumber(text: string): number | null {
  const t = text.trim();
  return /^\d{1,9}$/.test(t) ? Number(t) : null;
}

/**
 * A percentage: `20%`, `12.5%`, or a number followed by a `%` or `percent` token (`bare` also takes the number
 * alone). Returns the percentage and how many tokens it took, or null when the tokens there are not one.
 */
export function percentAt(
  tokens: readonly Token[],
  i: number,
  bare = false,
): { value: number; used: number; typed: string } | null {
  const t = tokens[i];
  if (!t || t.quoted) return null;
  const m = /^(\d{1,6}(?:\.\d{1,4})?)\s*%$/.exec(t.text.trim());
  if (m) return { value: Number(m[1]), used: 1, typed: t.text.trim() };
  const n = /^\d{1,6}(?:\.\d{1,4})?$/.test(t.text.trim()) ? Number(t.text.trim()) : null;
  if (n === null) return null;
  if (isWord(tokens[i + 1], '%', 'percent', 'pct')) return { value: n, used: 2, typed: `${t.text.trim()}%` };
  return bare ? { value: n, used: 1, typed: `${t.text.trim()}%` } : null;
}

/** A token that means to be a percentage but is not one we take (`-5%`, `1e2%`, `%`). */
export const looksLikePercent = (t: Token): boolean => !t.quoted && /%$/.test(t.text.trim());

/**
 * The customer (and place) the remaining words name: a quoted customer may be followed by a department or unit
 * (`"Mercy General Hospital" ICU`, as the `short` command reads it); otherwise every word is the customer.
 */
export function customerWords(
  tokens: readonly Token[],
  takesPlace: boolean,
): { customer?: string | undefined; place?: string | undefined } {
  const words = meaningful(tokens);
  if (words.length === 0) return {};
  const joined = (ts: readonly Token[]) => ts.map((t) => t.text.trim().replace(/\s+/g, ' ')).join(' ');
  if (takesPlace && words[0]!.quoted && words.length > 1)
    return { customer: joined(words.slice(0, 1)), place: joined(words.slice(1)) };
  return { customer: joined(words) };
}

/** The parsed alert, leaving out what was not typed (options are stored as JSON). */
export function parsed<Options>(
  options: Options,
  who: { customer?: string | undefined; place?: string | undefined },
): ParsedAlert<Options> {
  const out: ParsedAlert<Options> = { options };
  if (who.customer !== undefined) out.customer = who.customer;
  if (who.place !== undefined) out.place = who.place;
  return out;
}

// ---------------------------------------------------------------------------------------------------------------
// The message

/** Occurrences listed before the rest are counted ("…and 12 more carts"). */
const MAX_LISTED = 25;
/**
 * Rendered characters of one listed occurrence, and of all of them: long names list fewer, so that the message
 * stays whole on every platform (a Teams card holds about 26 KB).
 */
const MAX_LINE = 700;
const LIST_BUDGET = 12_000;

/** Worst first (larger weight), then by id so that a message reads the same however the occurrences came. */
export function worstFirst<D>(occurrences: readonly Occurrence<D>[]): Occurrence<D>[] {
  return [...occurrences].sort((a, b) => b.weight - a.weight || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

export interface AlertMessage<Detail> {
  /** What happened, as a title (`3 carts short at Mercy General Hospital`). */
  title: string;
  /** What happened, where and how much, in a sentence or two. */
  lead: Rich;
  /** The notification text: the lead said plainly, with the worst named. */
  summary: string;
  /** In any order: they are listed worst first. */
  occurrences: readonly Occurrence<Detail>[];
  /** One occurrence as a list line. */
  line: (detail: Detail) => Rich;
  /** One occurrence told alone, as labelled fields (else its line). */
  fields?: ((detail: Detail) => Field[]) | undefined;
  /** What a told-alone occurrence says under its fields (the items missing, the worst items). */
  after?: ((detail: Detail) => Rich | null) | undefined;
  /** `carts`: what "…and N more" counts. */
  noun: string;
  /** Small print: how a figure is computed, the time zone. */
  notes: readonly Rich[];
  actions: readonly Action[];
  test?: boolean | undefined;
}

/** The title within its limit, as plain text. */
function titleText(s: string): string {
  return plainText(truncateRich([s], CONTENT_LIMITS.title));
}

/**
 * One message telling a check's occurrences: the title, the lead sentence, the occurrences worst first (alone as
 * fields; several as lines, as many of the worst as fit, then how many more), the notes and the actions.
 */
export function alertMessage<Detail>(m: AlertMessage<Detail>): Content {
  const sorted = worstFirst(m.occurrences);
  const parts: Part[] = [title(titleText(m.test ? `Test: ${m.title}` : m.title))];
  if (m.test) parts.push(note(['A test of this alert: what it would say if it fired now.']));
  parts.push(text(truncateRich(m.lead, CONTENT_LIMITS.text)));
  const only = sorted.length === 1 ? sorted[0]! : null;
  if (only && m.fields) {
    const items = m
      .fields(only.detail)
      .slice(0, CONTENT_LIMITS.fields)
      .map((f) => ({ label: titleText(f.label), value: truncateRich(f.value, CONTENT_LIMITS.fieldText) }));
    parts.push(fields(items));
    const after = m.after?.(only.detail);
    if (after) parts.push(text(truncateRich(after, CONTENT_LIMITS.text)));
  } else {
    const listed: Rich[] = [];
    let used = 0;
    for (const o of sorted.slice(0, MAX_LISTED)) {
      const l = truncateRich(m.line(o.detail), MAX_LINE);
      used += measure(l) + 1;
      if (listed.length && used > LIST_BUDGET) break;
      listed.push(l);
    }
    const more = sorted.length - listed.length;
    if (more > 0) listed.push([moreLine(more, m.noun)]);
    for (const chunk of chunkLines(listed)) parts.push(text(chunk));
  }
  if (m.notes.length) parts.push(note(...m.notes.map((n) => truncateRich(n, CONTENT_LIMITS.text))));
  if (m.actions.length) parts.push(actions(m.actions.slice(0, CONTENT_LIMITS.actions)));
  const said = m.test ? `Test: ${m.summary}` : m.summary;
  return { summary: truncateRich([line(said)], CONTENT_LIMITS.summary), parts };
}

/** A rerun button: its label within a button's length. */
export function rerun(label: string, command: string): Action {
  return { kind: 'rerun', label: label.length > 75 ? `${label.slice(0, 74)}…` : label, command };
}
