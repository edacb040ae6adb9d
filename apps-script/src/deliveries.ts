/**
 * A customer's daily delivery rows for LINEN_FILLRATE, LINEN_PARMET and LINEN_DELIVERIES: one cached listing
 * per customer and window, narrowed here to a department and an item, so a grid of cells shares its pages.
 *
 * Lookups are lazy, because the rows carry their department's and item's ids and names: the customers list is
 * read to turn a customer name into an id, and the items list only for an item no row names. A sheet written
 * with ids costs the pages of its deliveries and nothing more.
 */

import { type Customer, type DailyDeliveryRow, groupWithoutOwn } from '../../shared/index.ts';
import { normalizeName } from '../../shared/names.ts';
import { type Context, isBlank, text, window } from './context.ts';
import type { Args } from './functions/common.ts';

export function deliveryRows(ctx: Context, a: Args): DailyDeliveryRow[] {
  const w = window(ctx, a.from, a.to, true); // a wrong date costs no request
  const ref = ctx.customerRef(a.customer);
  const list = (customerId: string) => ctx.rows('deliveries.daily', { customerId, ...w }, (c) => c.deliveries.daily);
  let customer: Customer | undefined = ref.customer;
  const known = (): Customer => {
    customer ??= ctx.customer(ref.id);
    return customer;
  };
  let all: DailyDeliveryRow[];
  if (customer) {
    all = list(known().id);
  } else {
    try {
      all = list(ref.id);
    } catch (e) {
      // Shaped like an id but not one this key sees: the customers list says, in words, what it is.
      if (known().id === ref.id) throw e;
      all = list(customer!.id);
    }
  }
  // A group with deliveries of its own is answered like any customer; one without names its locations.
  if (!all.length && known().is_group)
    throw groupWithoutOwn(known(), ctx.customers(), 'deliveries', w.to ? { from: w.from, to: w.to } : undefined);

  let rows = all;
  if (!isBlank(a.department)) {
    const q = text(a.department, 'department')!;
    const n = normalizeName(q);
    const named = all.filter((r) => r.department_id === q || normalizeName(r.department_name ?? '') === n);
    // No row names it: a department without deliveries is fine, an unknown one is an error.
    rows = named.length ? named : all.filter((r) => r.department_id === ctx.department(q, known()).id);
  }
  const q = text(a.item, 'item');
  if (q !== undefined) {
    const n = normalizeName(q);
    const names = (r: DailyDeliveryRow) => r.item_id === q || normalizeName(r.item_name) === n;
    // Looked for among all the customer's rows, so an item that only some departments receive costs no lookup;
    // otherwise the items list knows it by id, name or SKU, or says it is unknown.
    const itemId = all.some(names) ? undefined : ctx.item(q).id;
    rows = rows.filter((r) => (itemId === undefined ? names(r) : r.item_id === itemId));
  }
  return rows;
}
