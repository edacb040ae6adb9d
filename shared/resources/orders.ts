import { P, type ParamsOf } from '../params.ts';
import { ORDER_STAGES, OrderDetailSchema, OrderSchema } from '../schemas/orders.ts';
import { DATED, get, listsIn, type ResourceContext } from './define.ts';

const SCOPE = 'direct_sales';
const orderParams = { ...DATED, stage: P.oneOf(ORDER_STAGES) };
export type OrderListParams = ParamsOf<typeof orderParams>;

export function ordersResource(ctx: ResourceContext) {
  return {
    /** GET /orders: direct-sales orders; `from`/`to` filter on the placed day (drafts drop out). */
    list: listsIn(ctx, SCOPE)('/orders', OrderSchema, orderParams),
    /** GET /orders/{id}: the order with its lines and charges (charge unit prices in mills). */
    get: (id: string) => get(ctx, { path: '/orders', idName: 'order id', scope: SCOPE, item: OrderDetailSchema }, id),
  };
}
