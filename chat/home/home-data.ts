/**
 * What one home reads and computes: the same reports as the commands (short today from the latest cart counts, par
 * met from the daily deliveries, the open shortfall signals, the overdue invoices and the purchase orders running
 * out), over whole listings of the key, kept to what the person follows afterwards. Every listing is the same
 * request for every person of a key (no person's follows are in a URL), and goes through the key's client: its
 * pacing, and the answers it shares in the process (`processAnswers`), so ten people opening their homes at once cost
 * one set of requests, not ten.
 */
import {
  type AgedInvoice,
  addDays,
  ageInvoices,
  type Customer,
  computePoStatus,
  computeShort,
  type DailyDeliveryRow,
  type Department,
  type InventorySignal,
  type LinenClient,
  lastCompleteDays,
  PermissionDeniedError,
  type PoStatus,
  SHORTFALL_KINDS,
  type ShortToday,
  today as todayIn,
  type Unit,
} from '../../shared/index.ts';
import type { ChoiceOption } from '../content/document.ts';
import type { LinenService } from '../linen.ts';
import { LOW_BUDGET_SHARE } from '../views/po.ts';
import type { Follows } from './follows.ts';
import { homeScope } from './scope.ts';

/** A purchase order this close to its expiry is running out, whatever budget it has left. */
export const EXPIRING_DAYS = 30;

export interface HomeData {
  builtAt: Date;
  timeZone: string;
  follows: Follows;
  /** The key's customers. */
  customers: readonly Customer[];
  /** The customers in scope (every one when the person follows none), by name. */
  inScope: readonly Customer[];
  /** The departments and units of the followed customers, to narrow to (`d:<id>`, `u:<id>`). */
  placeOptions: readonly ChoiceOption[];
  /** Short today over the customers in scope. */
  short: ShortToday;
  /** The last seven whole days (today left out), oldest first; the last is yesterday. */
  days: readonly string[];
  /** Daily delivery rows of those days, in scope. */
  deliveries: readonly DailyDeliveryRow[];
  /** Open and acknowledged shortfall signals in scope. */
  signals: readonly InventorySignal[];
  /** Overdue invoices in scope, most overdue first; null where they are not shown (no accounting here). */
  overdue: readonly AgedInvoice[] | null;
  /** Active purchase orders in scope under LOW_BUDGET_SHARE left or expiring within EXPIRING_DAYS; null: not shown. */
  runningOut: readonly PoStatus[] | null;
}

export interface HomeReadOptions {
  linen: LinenService;
  follows: Follows;
  now: Date;
  /** Whether accounting answers may appear where the home is (the person's direct messages). */
  accounting: boolean;
}

/** The place values of a choice: a department or a unit of a customer. */
export const placeValue = (kind: 'department' | 'unit', id: string) => `${kind === 'department' ? 'd' : 'u'}:${id}`;

/** Open invoices and active purchase orders; null when the key has no accounting scope. */
async function readAccounting(client: LinenClient) {
  try {
    const [sent, partial, orders] = await Promise.all([
      client.invoices.list({ status: 'sent' }).all(),
      client.invoices.list({ status: 'partially_paid' }).all(),
      client.purchaseOrders.list({ status: 'active' }).all(),
    ]);
    return { invoices: [...sent, ...partial], orders };
  } catch (err) {
    // A key without the accounting scope: the home shows what the key can see, and no accounting part.
    if (err instanceof PermissionDeniedError) return null;
    throw err;
  }
}

/** The departments and units of the followed customers (a group's own), as choices. */
function placeOptionsOf(followed: readonly Customer[], units: readonly Unit[]): ChoiceOption[] {
  return followed.flatMap((c) => [
    ...c.departments.map((d) => ({ value: placeValue('department', d.id), label: `${c.name} › ${d.name}` })),
    ...units
      .filter((u) => u.customer_id === c.id && u.is_active)
      .map((u) => ({ value: placeValue('unit', u.id), label: `${c.name} › ${u.name} (unit)` })),
  ]);
}

export async function readHome(o: HomeReadOptions): Promise<HomeData> {
  const { linen, follows, now } = o;
  const client = linen.client;
  const timeZone = linen.timeZone;
  const today = todayIn(timeZone, now);
  const countWindow = { from: addDays(today, -6), to: today };
  const week = lastCompleteDays(7, timeZone, now);
  const narrowed = [...new Set(follows.places.map((p) => p.customerId))];
  const [customers, counts, deliveries, signals, units, departments, accounting] = await Promise.all([
    linen.customers(),
    client.inventory.counts(countWindow).all(),
    client.deliveries.daily(week).all(),
    // Without a status the API lists open and acknowledged signals.
    client.inventory.signals().all(),
    follows.customerIds.length ? client.inventory.units().all() : Promise.resolve([]),
    Promise.all(narrowed.map((id) => client.customers.departments(id).all())).then((d): Department[] => d.flat()),
    o.accounting ? readAccounting(client) : Promise.resolve(null),
  ]);
  const scope = homeScope(follows, customers, units, departments);
  const followed = customers.filter((c) => follows.customerIds.includes(c.id));
  const days: string[] = [];
  for (let d = week.from; d <= week.to; d = addDays(d, 1)) days.push(d);
  const flagged = (p: PoStatus) =>
    (p.remainingShare !== null && p.remainingShare < LOW_BUDGET_SHARE) ||
    (p.daysToExpiry >= 0 && p.daysToExpiry <= EXPIRING_DAYS);
  return {
    builtAt: now,
    timeZone,
    follows,
    customers,
    inScope: customers.filter((c) => scope.customer(c.id)).sort((a, b) => a.name.localeCompare(b.name)),
    placeOptions: placeOptionsOf(followed, units),
    short: {
      ...computeShort(counts.filter((c) => scope.unit(c.customer_id, c.unit_id))),
      window: countWindow,
      place: null,
    },
    days,
    deliveries: deliveries.filter((r) => scope.department(r.customer_id, r.department_id)),
    signals: signals.filter(
      (s) =>
        (SHORTFALL_KINDS as readonly string[]).includes(s.kind) && scope.department(s.customer_id, s.department_id),
    ),
    overdue:
      accounting &&
      ageInvoices(
        accounting.invoices.filter((i) => i.balance_cents > 0 && scope.department(i.customer_id, i.department_id)),
        today,
        timeZone,
      ).filter((i) => (i.daysOverdue ?? 0) > 0),
    runningOut:
      accounting &&
      computePoStatus(
        accounting.orders.filter((p) => scope.customer(p.customer_id)),
        today,
        timeZone,
      ).filter(flagged),
  };
}
