/**
 * How long an answer of the Linen API is reused for the same key and the same URL (query included). Lists that
 * change over days are reused for minutes; what people watch move (balances, invoices, signals, counts, tickets)
 * for seconds; anything else, and every invoice PDF, is fetched each time.
 */

/** Customers, their departments, items, units, carts and par levels: set up once, changed now and then. */
export const SLOW_DATA_MS = 5 * 60_000;
/** Everything people watch move: long enough for a burst of the same question, short enough to look live. */
export const MOVING_DATA_MS = 15_000;

const SLOW = [/^\/customers$/, /^\/customers\/[^/]+\/departments$/, /^\/items$/, /^\/inventory\/(units|carts|par)$/];
const MOVING = [
  /^\/balance$/,
  /^\/(invoices|payments|purchase-orders)$/,
  /^\/inventory\/(signals|balances|totals|counts)$/,
  /^\/(quality-tickets|ratings|new-linen|rewash)$/,
  /^\/deliveries\/daily$/,
  /^\/(manifests|orders)(\/[^/]+)?$/,
];

/** The reuse time of an answer to `path` (below the base URL, without the query); 0: not kept. */
export function freshnessMs(path: string): number {
  if (SLOW.some((re) => re.test(path))) return SLOW_DATA_MS;
  if (MOVING.some((re) => re.test(path))) return MOVING_DATA_MS;
  return 0;
}
