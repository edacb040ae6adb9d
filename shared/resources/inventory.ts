import { P, type ParamsOf } from '../params.ts';
import {
  BalanceByStatusSchema,
  CartCountSchema,
  CartSchema,
  COUNT_STATUSES,
  InventorySignalSchema,
  InventoryTotalSchema,
  ParLevelSchema,
  SIGNAL_KINDS,
  SIGNAL_STATUSES,
  UnitSchema,
} from '../schemas/inventory.ts';
import { COMMON, DATED, listsIn, type ResourceContext } from './define.ts';

const SCOPE = 'processing';

const totalsParams = { ...COMMON };
const parParams = { ...COMMON, departmentId: P.id };
const unitParams = { ...COMMON };
const cartParams = { ...COMMON, unitId: P.id };
const countParams = { ...DATED, unitId: P.id, cartId: P.id, status: P.oneOf(COUNT_STATUSES) };
const balanceParams = { ...COMMON, itemId: P.id };
const signalParams = { ...COMMON, kind: P.open(SIGNAL_KINDS), status: P.oneOf(SIGNAL_STATUSES) };

export type InventoryTotalsParams = ParamsOf<typeof totalsParams>;
export type ParLevelParams = ParamsOf<typeof parParams>;
export type UnitListParams = ParamsOf<typeof unitParams>;
export type CartListParams = ParamsOf<typeof cartParams>;
export type CartCountParams = ParamsOf<typeof countParams>;
export type BalanceByStatusParams = ParamsOf<typeof balanceParams>;
export type SignalListParams = ParamsOf<typeof signalParams>;

export function inventoryResource(ctx: ResourceContext) {
  const lists = listsIn(ctx, SCOPE);
  return {
    /** GET /inventory/totals: owned, at customer, at facility, in transit and retired per item. */
    totals: lists('/inventory/totals', InventoryTotalSchema, totalsParams),
    /** GET /inventory/par: par levels (customer-wide rows have a null department). */
    par: lists('/inventory/par', ParLevelSchema, parParams),
    /** GET /inventory/units. */
    units: lists('/inventory/units', UnitSchema, unitParams),
    /** GET /inventory/carts. */
    carts: lists('/inventory/carts', CartSchema, cartParams),
    /** GET /inventory/counts: defaults to the last 7 days; windows over 92 days are split and merged. */
    counts: lists('/inventory/counts', CartCountSchema, countParams, { splitWindow: true }),
    /** GET /inventory/balances: quantity per item and status. */
    balances: lists('/inventory/balances', BalanceByStatusSchema, balanceParams),
    /** GET /inventory/signals: without `status`, open and acknowledged signals. */
    signals: lists('/inventory/signals', InventorySignalSchema, signalParams),
  };
}
