/**
 * Deterministic seeded data for the sandbox API.
 *
 * `generateSandboxData({ today, timeZone, seed })` builds 180 days of history ending `today` (org-local) for
 * "Prairie Linen Services" and its customers. The same seed, day and timezone always give byte-identical data:
 * all randomness comes from the seeded generator and all instants from the given day, never from the clock.
 * The history is drawn from a fixed origin (calendar.ts), so the days two windows share hold the same records.
 */
import type { SandboxData } from '../model.ts';
import { buildAccounting } from './accounting.ts';
import { deriveDailyDeliveries, deriveNewLinen } from './deliveries.ts';
import { buildCartCounts, buildPositions, buildUnitsAndCarts } from './inventory.ts';
import { buildOperations } from './operations.ts';
import { buildKeys, buildOrg } from './org.ts';
import { Rng } from './prng.ts';
import { buildRatings, buildTickets } from './quality.ts';
import { buildOrders } from './sales.ts';
import { buildSignals } from './signals.ts';
import { addDays, Clock, isValidDay } from './time.ts';

export { DEMO_KEYS } from './org.ts';

export interface SeedOptions {
  /** `YYYY-MM-DD`, org-local: the last day of the history. */
  today: string;
  /** IANA timezone of the organization. */
  timeZone: string;
  seed: string;
  /** The instant the data is "as of" (epoch ms, within `today`); default noon of `today`, org-local. */
  asOf?: number;
}

/** Days of history, `today` included. */
export const HISTORY_DAYS = 180;

export function generateSandboxData(options: SeedOptions): SandboxData {
  const { today, timeZone, seed } = options;
  if (!isValidDay(today)) throw new Error(`today must be a YYYY-MM-DD day, got ${JSON.stringify(today)}`);
  try {
    new Intl.DateTimeFormat('en-US', { timeZone });
  } catch {
    throw new Error(`unknown time zone ${JSON.stringify(timeZone)}`);
  }
  const root = new Rng(`linen-connect:${seed}`);
  const clock = new Clock(timeZone, today, options.asOf);
  if (clock.localDay(clock.nowMs) !== today) throw new Error(`asOf must fall within ${today} in ${timeZone}`);
  const firstDay = addDays(today, -(HISTORY_DAYS - 1));

  const org = buildOrg(root.fork('org'), clock);
  const { manifests, rewash_batches } = buildOperations(root.fork('operations'), clock, org, firstDay);
  const daily_deliveries = deriveDailyDeliveries(org, clock, manifests);
  const new_linen = deriveNewLinen(clock, manifests);
  const inventory = buildPositions(root.fork('positions'), org);
  const { units, carts } = buildUnitsAndCarts(root.fork('units'), org);
  const cart_counts = buildCartCounts(root.fork('counts'), clock, units, carts);
  const signals = buildSignals(root.fork('signals'), clock, org, daily_deliveries, inventory, new_linen);
  const { invoices, payments, purchase_orders } = buildAccounting(
    root.fork('accounting'),
    clock,
    org,
    firstDay,
    manifests,
  );
  const orders = buildOrders(root.fork('sales'), clock, org, firstDay);
  const tickets = buildTickets(root.fork('tickets'), clock, org, firstDay);
  const ratings = buildRatings(root.fork('ratings'), clock, org, manifests);
  const keys = buildKeys(root.fork('keys'), org, units);

  return {
    organization: org.organization,
    seeded: { first_day: firstDay, today },
    keys,
    customers: org.customerRecords,
    departments: org.departments,
    items: org.items,
    customer_items: org.customer_items,
    weight_overrides: org.weight_overrides,
    manifests,
    daily_deliveries,
    inventory,
    pars: org.pars,
    units,
    carts,
    cart_counts,
    signals,
    new_linen,
    rewash_batches,
    invoices,
    payments,
    purchase_orders,
    orders,
    tickets,
    ratings,
  };
}
