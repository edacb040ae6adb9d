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
import { COMMON, DATED, list, type ResourceContext } from './define.ts';

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
  return {
    /** GET /inventory/totals: owned, at customer, at facility, in transit and retired per item. */
    totals: (params?: InventoryTotalsParams) =>
      list(ctx, { path: '/inventory/totals', scope: SCOPE, item: InventoryTotalSchema, params: totalsParams }, params),
    /** GET /inventory/par: par levels (customer-wide rows have a null department). */
    par: (params?: ParLevelParams) =>
      list(ctx, { path: '/inventory/par', scope: SCOPE, item: ParLevelSchema, params: parParams }, params),
    /** GET /inventory/units. */
    units: (params?: UnitListParams) =>
      list(ctx, { path: '/inventory/units', scope: SCOPE, item: UnitSchema, params: unitParams }, params),
    /** GET /inventory/carts. */
    carts: (params?: CartListParams) =>
      list(ctx, { path: '/inventory/carts', scope: SCOPE, item: CartSchema, params: cartParams }, params),
    /** GET /inventory/counts: defaults to the last 7 days; windows over 92 days are split and merged. */
    counts: (params?: CartCountParams) =>
      list(
        ctx,
        { path: '/inventory/counts', scope: SCOPE, item: CartCountSchema, params: countParams, splitWindow: true },
        params,
      ),
    /** GET /inventory/balances: quantity per item and status. */
    balances: (params?: BalanceByStatusParams) =>
      list(
        ctx,
        { path: '/inventory/balances', scope: SCOPE, item: BalanceByStatusSchema, params: balanceParams },
        params,
      ),
    /** GET /inventory/signals: without `status`, open and acknowledged signals. */
    signals: (params?: SignalListParams) =>
      list(
        ctx,
        { path: '/inventory/signals', scope: SCOPE, item: InventorySignalSchema, params: signalParams },
        params,
      ),
  };
}
