/** Who and what the key sees: customers, a customer's departments, the items. */

import * as col from '../columns.ts';
import { grid } from '../columns.ts';
import { departments, type Impl, listing } from './common.ts';

export const DIRECTORY_IMPLS: Record<string, Impl> = {
  *LINEN_CUSTOMERS(ctx) {
    return yield* grid(ctx, yield* ctx.customers(), [
      'id',
      'name',
      'is_group',
      col.computed('Departments', (c) => c.departments.map((d) => d.name).join(', ')),
      col.time('created_at'),
    ]);
  },

  *LINEN_DEPARTMENTS(ctx, a) {
    return yield* grid(ctx, yield* departments(ctx, (yield* ctx.customer(a.customer)).id), [
      'id',
      col.customer('customer_id'),
      'name',
      'cost_center_code',
    ]);
  },

  LINEN_ITEMS: listing('items.list', (x) => x.items.list, { dated: false }).columns([
    'id',
    col.value('sku', 'SKU'),
    'name',
    'category',
    'unit_of_measure',
    'weight_lb',
  ]),
};
