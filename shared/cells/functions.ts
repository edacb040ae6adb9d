/**
 * The LINEN functions' work, one family a module under functions/, written once for both spreadsheets. Each
 * reads its arguments (named as in `catalog.ts`), asks the spreadsheet's cache for whole listings, and shapes the
 * answer for a cell: a number, a label or a table. Filters the API offers are sent to it, except on daily
 * deliveries, where department and item are applied to the customer's cached rows so a grid of cells over one
 * customer and window shares a single listing.
 */

import { ACCOUNTING_IMPLS } from './functions/accounting.ts';
import type { Impl } from './functions/common.ts';
import { DIRECTORY_IMPLS } from './functions/directory.ts';
import { FILL_RATE_IMPLS } from './functions/fill-rate.ts';
import { INVENTORY_IMPLS } from './functions/inventory.ts';
import { MANIFEST_IMPLS } from './functions/manifests.ts';
import { ORDER_IMPLS } from './functions/orders.ts';
import { TICKET_IMPLS } from './functions/tickets.ts';

/** Every LINEN function by its catalog name (`LINEN_FILLRATE`), as the cells, the refresh planner and the formula builder call them. */
export const IMPLS: Record<string, Impl> = {
  ...FILL_RATE_IMPLS,
  ...INVENTORY_IMPLS,
  ...ACCOUNTING_IMPLS,
  ...MANIFEST_IMPLS,
  ...ORDER_IMPLS,
  ...TICKET_IMPLS,
  ...DIRECTORY_IMPLS,
};
