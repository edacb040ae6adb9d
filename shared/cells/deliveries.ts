/**
 * A customer's daily delivery rows for LINEN_FILLRATE, LINEN_PARMET and LINEN_DELIVERIES: one cached listing
 * per customer and window, narrowed here to a department and an item, so a grid of cells shares its pages.
 *
 * Lookups are lazy, because the rows carry their department's and item's ids and names: the customers list is
 * read to turn a customer name into an id, and the items list only for an item no row names. A sheet written
 * with ids costs the pages of its deliveries and nothing more.
 */

import type { Operation } from '../core/effects.ts';
import { normalizeName } from '../names.ts';
import { groupWithoutOwn } from '../reports/groups.ts';
import type { Customer } from '../schemas/customers.ts';
import type { DailyDeliveryRow } from '../schemas/processing.ts';
import { isBlank, text } from './args.ts';
import type { CellContext } from './context.ts';
import type { Args } from './functions/common.ts';

export function* deliveryRows(ctx: CellContext, a: Args): Operation<DailyDeliveryRow[]> {
  const w = ctx.window(a.from, a.to, true); // a wrong date costs no request
  const ref = yield* ctx.customerRef(a.customer);
  const list = (customerId: string) => ctx.rows('deliveries.daily', { customerId, ...w }, (x) => x.deliveries.daily);
  let customer: Customer | undefined = ref.customer;
  function* known(): Operation<Customer> {
    customer ??= yield* ctx.customer(ref.id);
    return customer;
  }
  let all: DailyDeliveryRow[];
  if (customer) {
    all = yield* list(customer.id);
  } else {
    try {
      all = yield* list(ref.id);
    } catch (e) {
      // Shaped like an id but not one this key sees: the customers list says, in words, what it is.
      if ((yield* known()).id === ref.id) throw e;
      all = yield* list(customer!.id);
    }
  }
  // A group with deliveries of its own is answered like any customer; one without names its locations.
  if (!all.length && (yield* known()).is_group)
    throw groupWithoutOwn(
      customer!,
      yield* ctx.customers(),
      'deliveries',
      w.to ? { from: w.from, to: w.to } : undefined,
    );

  let rows = all;
  if (!isBlank(a.department)) {
    const q = text(a.department, 'department')!;
    const n = normalizeName(q);
    const named = all.filter((r) => r.department_id === q || normalizeName(r.department_name ?? '') === n);
    // No row names it: a department without deliveries is fine, an unknown one is an error (when there are rows).
    if (named.length) rows = named;
    else if (all.length) {
      const dept = yield* ctx.department(q, yield* known());
      rows = all.filter((r) => r.department_id === dept.id);
    }
  }
  const q = text(a.item, 'item');
  if (q !== undefined) {
    const n = normalizeName(q);
    const names = (r: DailyDeliveryRow) => r.item_id === q || normalizeName(r.item_name) === n;
    // Looked for among all the customer's rows, so an item that only some departments receive costs no lookup;
    // otherwise the items list knows it by id, name or SKU, or says it is unknown.
    const itemId = all.some(names) ? undefined : (yield* ctx.item(q)).id;
    rows = rows.filter((r) => (itemId === undefined ? names(r) : r.item_id === itemId));
  }
  return rows;
}
