import { type ParamsOf, pathId } from '../params.ts';
import { CustomerSchema, DepartmentSchema, ItemSchema } from '../schemas/customers.ts';
import { COMMON, list, listsIn, type ResourceContext } from './define.ts';

const customerParams = { ...COMMON };
const departmentParams = { ...COMMON };
const itemParams = { ...COMMON };

export type CustomerListParams = ParamsOf<typeof customerParams>;
export type DepartmentListParams = ParamsOf<typeof departmentParams>;
export type ItemListParams = ParamsOf<typeof itemParams>;

export function customersResource(ctx: ResourceContext) {
  return {
    /** GET /customers: the customers this key sees. */
    list: listsIn(ctx)('/customers', CustomerSchema, customerParams),
    /** GET /customers/{id}/departments. An unknown or invisible customer is a NotFoundError. */
    departments: (customerId: string, params?: DepartmentListParams) =>
      list(
        ctx,
        {
          path: `/customers/${pathId(customerId, 'customerId')}/departments`,
          template: '/customers/{id}/departments',
          item: DepartmentSchema,
          params: departmentParams,
        },
        params,
      ),
  };
}

export function itemsResource(ctx: ResourceContext) {
  return {
    /** GET /items. With `customerId`, `weight_lb` is that customer's override when set. */
    list: listsIn(ctx)('/items', ItemSchema, itemParams),
  };
}
