/**
 * The digest kinds: the words that name them in `/linen digest subscribe`, their default cadence, their options
 * and whose data a subscription reads (a group customer stands for itself and its locations).
 */
import { type Customer, groupLocations } from '../../shared/index.ts';
import type { DigestKind, DigestOptions, Subscription } from './storage/types.ts';

const WORDS: Record<string, DigestKind> = {
  shortfall: 'shortfall',
  shortfalls: 'shortfall',
  receivables: 'receivables',
  ar: 'receivables',
  tickets: 'tickets',
  budgets: 'budgets',
  budget: 'budgets',
};

/** The kind a word names, or null. */
export function digestKind(word: string): DigestKind | null {
  return WORDS[word.trim().toLowerCase()] ?? null;
}

/** Receivables are for a finance channel once a week (Monday); the others every day. */
export const DEFAULT_CADENCE: Record<DigestKind, string> = {
  shortfall: 'daily',
  receivables: 'mon',
  tickets: 'daily',
  budgets: 'daily',
};

/** A budget is flagged under this share left, or when it expires within this many days. */
export const DEFAULT_BUDGET_SHARE = 0.2;
export const DEFAULT_EXPIRING_DAYS = 30;

export function budgetThresholds(options: DigestOptions): { share: number; days: number } {
  return { share: options.budgetShare ?? DEFAULT_BUDGET_SHARE, days: options.expiringDays ?? DEFAULT_EXPIRING_DAYS };
}

/** `receivables digest`, `budgets digest (under 20% left or expiring within 30 days)`. */
export function describeKind(kind: DigestKind, options: DigestOptions): string {
  if (kind !== 'budgets') return `${kind} digest`;
  const t = budgetThresholds(options);
  return `budgets digest (under ${Math.round(t.share * 100)}% left or expiring within ${t.days} days)`;
}

/**
 * Whether a customer's records belong to a subscription: every customer when it names none; otherwise the ones it
 * names, and with a group the locations its name suggests (each record is shown under its own customer).
 */
export function customerScope(
  sub: Pick<Subscription, 'customerIds'>,
  customers: readonly Customer[],
): (customerId: string | null) => boolean {
  if (sub.customerIds.length === 0) return () => true;
  const ids = new Set(sub.customerIds);
  for (const c of customers) if (ids.has(c.id)) for (const l of groupLocations(c, customers)) ids.add(l.id);
  return (customerId) => customerId !== null && ids.has(customerId);
}
