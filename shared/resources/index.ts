/**
 * Every listing and lookup of the API, as operation descriptions (run by either client). The invoice PDF
 * download (`filesResource`) is added by the clients that offer it (see client.ts).
 */
import { balanceResource, invoicesResource, paymentsResource, purchaseOrdersResource } from './accounting.ts';
import { customersResource, itemsResource } from './customers.ts';
import type { ResourceContext } from './define.ts';
import { inventoryResource } from './inventory.ts';
import { ordersResource } from './orders.ts';
import { deliveriesResource, manifestsResource, newLinenResource, rewashResource } from './processing.ts';
import { qualityTicketsResource, ratingsResource } from './quality.ts';

export function defineResources(ctx: ResourceContext) {
  return {
    customers: customersResource(ctx),
    items: itemsResource(ctx),
    manifests: manifestsResource(ctx),
    deliveries: deliveriesResource(ctx),
    inventory: inventoryResource(ctx),
    newLinen: newLinenResource(ctx),
    rewash: rewashResource(ctx),
    invoices: invoicesResource(ctx),
    payments: paymentsResource(ctx),
    balance: balanceResource(ctx),
    purchaseOrders: purchaseOrdersResource(ctx),
    orders: ordersResource(ctx),
    qualityTickets: qualityTicketsResource(ctx),
    ratings: ratingsResource(ctx),
  };
}

export type Api = ReturnType<typeof defineResources>;
