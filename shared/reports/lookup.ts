/**
 * Finding things by what people type: a ticket by its display number, a customer by id or name.
 */

import type { DayWindow } from '../dates.ts';
import { addDays } from '../dates.ts';
import { InvalidParamsError, NotFoundError } from '../errors.ts';
import { normalizeName } from '../names.ts';
import type { Customer } from '../schemas/customers.ts';
import { type QualityTicket, TICKET_STATUS_LABELS } from '../schemas/quality.ts';

/** A display number's shape: `PREFIX-YY-sequence` (sandbox/seed/numbers.ts), the year being the org-local year. */
export interface NumberFormat {
  prefix: string;
  digits: number;
  /** How it is named in messages, article included, with an example: `a ticket number like TKT-26-00417`. */
  what: string;
  example: string;
}

export const TICKET_NUMBER: NumberFormat = {
  prefix: 'TKT',
  digits: 5,
  what: 'a ticket number',
  example: 'TKT-26-00417',
};
export const MANIFEST_NUMBER: NumberFormat = {
  prefix: 'MAN',
  digits: 6,
  what: 'a manifest number',
  example: 'MAN-26-027570',
};
export const ORDER_NUMBER: NumberFormat = { prefix: 'DS', digits: 5, what: 'an order number', example: 'DS-26-01234' };

/** Normalize `man-26-27570` / ` MAN-26-027570 ` to `MAN-26-027570`; throws on anything else. */
export function parseDisplayNumber(input: string, format: NumberFormat): { number: string; year: number } {
  const m = new RegExp(`^\\s*${format.prefix}-(\\d{2})-(\\d{1,${format.digits}})\\s*$`, 'i').exec(String(input));
  if (!m) throw new InvalidParamsError({ message: `"${input}" is not ${format.what} like ${format.example}` });
  return { number: `${format.prefix}-${m[1]}-${m[2]!.padStart(format.digits, '0')}`, year: 2000 + Number(m[1]) };
}

/** Normalize `tkt-26-417` / ` TKT-26-00417 ` to `TKT-26-00417`; throws on anything else. */
export function parseTicketNumber(input: string): { number: string; year: number } {
  return parseDisplayNumber(input, TICKET_NUMBER);
}

/** The created-date window a ticket number's year implies, a day wider each side for timezone edges. */
export function ticketWindow(year: number): DayWindow {
  return { from: addDays(`${year}-01-01`, -1), to: addDays(`${year}-12-31`, 1) };
}

/** A direct-sales order is numbered when placed: the placed-day window of its year, as for tickets. */
export function orderWindow(year: number): DayWindow {
  return ticketWindow(year);
}

/**
 * The delivered-day window of a manifest number's year. The number dates the manifest's creation (collection);
 * delivery follows within days, so the window runs two weeks past the year's end.
 */
export function manifestWindow(year: number): DayWindow {
  return { from: addDays(`${year}-01-01`, -1), to: addDays(`${year}-12-31`, 14) };
}

/** Manifests not yet delivered, newest stage first: a delivered-day window never lists them. */
export const UNDELIVERED_STATUSES = ['staged', 'cleaned', 'received', 'collected'] as const;

/** The label the spec defines for the status (`verified` shows `Resolved`). */
export function ticketStatusLabel(t: Pick<QualityTicket, 'status'>): string {
  return (TICKET_STATUS_LABELS as Readonly<Record<string, string>>)[t.status] ?? t.status;
}

export function ticketNotFound(number: string): NotFoundError {
  return notVisible(`ticket ${number}`);
}

/** `No manifest MAN-26-027570 is visible to this key.` as a NotFoundError raised before or after listing. */
export function notVisible(what: string): NotFoundError {
  const sentence = `No ${what} is visible to this key.`;
  return new NotFoundError({
    status: 404,
    code: 'not_found',
    message: sentence,
    userMessage: sentence,
    requestId: undefined,
  });
}

function distance(a: string, b: string): number {
  const prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let diag = prev[0]!;
    prev[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const tmp = prev[j]!;
      prev[j] = Math.min(prev[j]! + 1, prev[j - 1]! + 1, diag + (a[i - 1] === b[j - 1] ? 0 : 1));
      diag = tmp;
    }
  }
  return prev[b.length]!;
}

/** Names close to what was typed: containing it, contained in it, or a few edits away. Best first. */
export function closeMatches(query: string, customers: readonly Customer[], max = 5): Customer[] {
  const q = normalizeName(query);
  return customers
    .map((c) => {
      const n = normalizeName(c.name);
      const score = n.includes(q) || q.includes(n) ? 0 : distance(q, n);
      return { c, score };
    })
    .filter((x) => x.score <= Math.max(2, Math.floor(q.length / 4)))
    .sort((a, b) => a.score - b.score || a.c.name.localeCompare(b.c.name))
    .slice(0, max)
    .map((x) => x.c);
}

/**
 * Resolve a customer given as an id or a display name, case-insensitively: an exact name wins, else the one
 * name that contains what was typed ("Mercy General" for "Mercy General Hospital"). Several candidates, or
 * none, fail with a message listing the matches or the close names.
 */
export function resolveCustomerFrom(input: string, customers: readonly Customer[]): Customer {
  if (typeof input !== 'string' || input.trim() === '')
    throw new InvalidParamsError({ message: 'give a customer id or name' });
  const byId = customers.find((c) => c.id === input.trim());
  if (byId) return byId;
  const q = normalizeName(input);
  const exact = customers.filter((c) => normalizeName(c.name) === q);
  if (exact.length === 1) return exact[0]!;
  const list = (cs: readonly Customer[]) => cs.map((c) => `${c.name} (${c.id})`).join('; ');
  if (exact.length > 1) {
    throw new InvalidParamsError({
      message: `"${input.trim()}" matches several customers: ${list(exact)}. Use the id.`,
    });
  }
  const containing = customers.filter((c) => normalizeName(c.name).includes(q));
  if (containing.length === 1) return containing[0]!;
  if (containing.length > 1) {
    throw new InvalidParamsError({
      message: `"${input.trim()}" matches several customers: ${list(containing)}. Give the full name or the id.`,
    });
  }
  const close = closeMatches(input, customers);
  const hint = close.length ? ` Close matches: ${list(close)}.` : '';
  const sentence = `No customer named "${input.trim()}" is visible to this key.${hint}`;
  throw new NotFoundError({
    status: 404,
    code: 'not_found',
    message: sentence,
    userMessage: sentence,
    requestId: undefined,
  });
}
