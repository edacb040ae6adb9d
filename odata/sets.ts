/**
 * Every entity set of the feed, declared once: its API listing, its properties (from the client's schema), its
 * key, and which filters the API can do for it (folded into the listing's query; everything else is applied by
 * the feed). One set per list endpoint, plus one per list of objects inside the API's rows that is worth a table
 * (a cart's par, a payment's allocations, ...); the rest are left out (see the README's table).
 */
import type * as z from 'zod/mini';
import type { LinenClient } from '../shared/client.ts';
import type { AsyncPaged } from '../shared/paged.ts';
import {
  BalanceRowSchema,
  INVOICE_STATUSES,
  InvoiceSchema,
  PaymentSchema,
  PO_STATUSES,
  PurchaseOrderSchema,
} from '../shared/schemas/accounting.ts';
import { CustomerSchema, DepartmentSchema, ItemSchema } from '../shared/schemas/customers.ts';
import {
  BalanceByStatusSchema,
  CartCountSchema,
  CartSchema,
  COUNT_STATUSES,
  InventorySignalSchema,
  InventoryTotalSchema,
  ParLevelSchema,
  SIGNAL_STATUSES,
  UnitSchema,
} from '../shared/schemas/inventory.ts';
import { ORDER_STAGES, OrderSchema } from '../shared/schemas/orders.ts';
import {
  DailyDeliveryRowSchema,
  MANIFEST_STATUSES,
  MANIFEST_TYPES,
  ManifestSchema,
  NewLinenInjectionSchema,
  REWASH_STATUSES,
  RewashBatchSchema,
} from '../shared/schemas/processing.ts';
import { QualityTicketSchema, RatingSchema, TICKET_STATUSES } from '../shared/schemas/quality.ts';
import {
  type ComplexType,
  convert,
  elementOf,
  type PrimitiveProperty,
  type Property,
  type PropertyOptions,
  propertiesOf,
  shapeOf,
} from './edm.ts';

/** An API parameter a filter property folds into: `eq` values go to the API (one listing per value). */
export interface FoldParam {
  /** The client's parameter (`customerId`). */
  param: string;
  /** The values the API accepts, when it accepts only these (a value outside them is filtered by the feed). */
  values?: readonly string[] | undefined;
}

export interface Fold {
  /** Feed property -> API parameter. */
  params: Readonly<Record<string, FoldParam>>;
  /**
   * The property the API's `from`/`to` window applies to: a day (`Edm.Date`, exact) or an instant (its
   * org-local day, so the window is widened a day each side and the filter applied by the feed). `capped`: the
   * endpoint has a default window (7 days) and a 92-day cap, which the client splits.
   */
  window?: { property: string; kind: 'day' | 'instant'; capped?: boolean } | undefined;
  /**
   * How `customer_id` relates to the listing: `param` (the API filters its rows' customer_id), `echo` (the rows
   * have no customer; with a filter on one customer they are that customer's figures and say so, without it
   * they are across the key's customers and customer_id is null), `each` (one listing per customer, each row
   * tagged with it).
   */
  customers?: 'param' | 'echo' | 'each' | undefined;
  /** A parameter whose every value is listed when the filter names none (the API's default is narrower). */
  everyValue?: { property: string; values: readonly string[] } | undefined;
}

export type ListParams = Record<string, string>;
export type ApiRow = Record<string, unknown>;
export type FeedRow = Record<string, unknown>;

export interface EntitySet {
  name: string;
  typeName: string;
  /** Said on the set in `$metadata` (`Core.Description`). */
  description?: string | undefined;
  properties: Property[];
  /** Key property names. */
  key: readonly string[];
  fold: Fold;
  /** The API listing for these parameters (camelCase, as the client takes them). */
  list(client: LinenClient, params: ListParams): AsyncPaged<unknown>;
  /** An API row (with the listing's tag: the customer it was asked for) as the set's rows. */
  rows(row: ApiRow, tag: ApiRow): FeedRow[];
}

export const ROW_KEY = 'row_key';
const rowKeyProperty: PrimitiveProperty = {
  kind: 'primitive',
  name: ROW_KEY,
  source: ROW_KEY,
  type: 'Edm.String',
  nullable: false,
  money: false,
  description:
    'A stable key made of the fields that identify the row (the API gives it no id), joined with a vertical bar.',
};
const customerEcho: PrimitiveProperty = {
  kind: 'primitive',
  name: 'customer_id',
  source: 'customer_id',
  type: 'Edm.String',
  nullable: true,
  money: false,
  description:
    "The customer these figures are for, when the query filters on one customer (customer_id eq '…'); null: across every customer the key sees.",
};
const customerTag: PrimitiveProperty = {
  ...customerEcho,
  nullable: false,
  description: 'The customer the API listed this row for (the API row names none: one listing per customer).',
};

/** Every complex type the sets use, by name. */
export const complexTypes = new Map<string, ComplexType>();

const keyPart = (v: unknown) => (v === null || v === undefined ? '' : String(v));

/** `row_key` from the feed row's fields (`#` is the row's index in its parent's list). */
function withRowKey(row: FeedRow, parts: readonly string[], index?: number): FeedRow {
  const key = parts.map((p) => (p === '#' ? String(index ?? 0) : keyPart(row[p]))).join('|');
  return { ...row, [ROW_KEY]: key };
}

interface TopLevel extends PropertyOptions {
  name: string;
  typeName: string;
  schema: z.ZodMiniType;
  description?: string;
  /** `id`, or the fields that make `row_key`. */
  key: 'id' | 'customer_id' | readonly string[];
  fold: Fold;
  list: EntitySet['list'];
}

function topLevel(o: TopLevel): EntitySet {
  let properties = propertiesOf(o.schema, o.typeName, o, complexTypes);
  const customerProperty =
    o.fold.customers === 'echo' ? customerEcho : o.fold.customers === 'each' ? customerTag : undefined;
  if (customerProperty && !properties.some((p) => p.name === 'customer_id'))
    properties = [customerProperty, ...properties];
  const synthetic = typeof o.key !== 'string';
  if (synthetic) properties = [rowKeyProperty, ...properties];
  const parts = synthetic ? (o.key as readonly string[]) : [];
  return {
    name: o.name,
    typeName: o.typeName,
    description: o.description,
    properties,
    key: synthetic ? [ROW_KEY] : [o.key as string],
    fold: o.fold,
    list: o.list,
    rows(row, tag) {
      const feed = convert(properties, { ...row, ...tag });
      return [synthetic ? withRowKey(feed, parts) : feed];
    },
  };
}

interface LineSet {
  name: string;
  typeName: string;
  description?: string;
  schema: z.ZodMiniType;
  /** The parent's list field whose elements are the rows. */
  lines: string;
  /** The parent's fields each row carries, in order, renamed where the line has a field of the same name. */
  parent: readonly (string | readonly [string, string])[];
  parentOptions?: PropertyOptions;
  /** Fields of the row (feed names) that make `row_key`; `#` is the index in the parent's list. */
  key: readonly string[];
  fold: Fold;
  list: EntitySet['list'];
}

function lineSet(o: LineSet): EntitySet {
  const shape = shapeOf(o.schema);
  const picked = o.parent.map((f) => (typeof f === 'string' ? [f, f] : f) as readonly [string, string]);
  const parentProps = propertiesOf(o.schema, o.typeName, {
    ...o.parentOptions,
    omit: Object.keys(shape).filter((f) => !picked.some(([from]) => from === f)),
  });
  const byField = new Map(parentProps.map((p) => [p.source, p]));
  const carried = picked.map(([from, to]) => ({ ...byField.get(from)!, name: to, source: to }));
  let properties: Property[] = [
    rowKeyProperty,
    ...carried,
    ...propertiesOf(elementOf(shape[o.lines]!), `${o.typeName}`, {}, complexTypes),
  ];
  if (o.fold.customers === 'each' && !properties.some((p) => p.name === 'customer_id'))
    properties = [rowKeyProperty, customerTag, ...properties.slice(1)];
  return {
    name: o.name,
    typeName: o.typeName,
    description: o.description,
    properties,
    key: [ROW_KEY],
    fold: o.fold,
    list: o.list,
    rows(row, tag) {
      const parent: ApiRow = { ...tag };
      for (const [from, to] of picked) parent[to] = row[from];
      const lines = (row[o.lines] as ApiRow[] | undefined) ?? [];
      return lines.map((line, i) => withRowKey(convert(properties, { ...parent, ...line }), o.key, i));
    },
  };
}

// The client's list methods take typed parameters; the fold builds them from the filter as plain strings, each
// checked against the same declarations when the listing is built.
type Lister = (params: never) => AsyncPaged<unknown>;
const call = (method: Lister, params: ListParams) => method(params as never);

const param = (name: string, values?: readonly string[]): FoldParam => ({ param: name, values });
const CUSTOMER = { customer_id: param('customerId') };
const DEFAULT_WINDOW =
  "Without a filter on date, the API's default window: the last 7 days (today and the 6 days before it, in the organization's time zone). A filter on date reads any window, 92 days per request.";

export const ENTITY_SETS: readonly EntitySet[] = [
  topLevel({
    name: 'Customers',
    typeName: 'Customer',
    schema: CustomerSchema,
    omit: ['departments'],
    key: 'id',
    fold: { params: { id: param('customerId') } },
    list: (c, p) => call(c.customers.list, p),
  }),
  topLevel({
    name: 'Departments',
    typeName: 'Department',
    description: "Every visible customer's departments (one listing per customer).",
    schema: DepartmentSchema,
    key: 'id',
    fold: { params: CUSTOMER, customers: 'each' },
    list: (c, p) => c.customers.departments(p.customerId ?? ''),
  }),
  topLevel({
    name: 'Items',
    typeName: 'Item',
    description: "With a filter on one customer, weight_lb is that customer's override where it has one.",
    schema: ItemSchema,
    key: 'id',
    fold: { params: CUSTOMER, customers: 'echo' },
    list: (c, p) => call(c.items.list, p),
  }),
  topLevel({
    name: 'Manifests',
    typeName: 'Manifest',
    schema: ManifestSchema,
    key: 'id',
    fold: {
      params: {
        ...CUSTOMER,
        department_id: param('departmentId'),
        type: param('type', MANIFEST_TYPES),
        status: param('status', MANIFEST_STATUSES),
      },
      window: { property: 'delivered_at', kind: 'instant' },
    },
    list: (c, p) => call(c.manifests.list, p),
  }),
  topLevel({
    name: 'Deliveries',
    typeName: 'DailyDelivery',
    description: DEFAULT_WINDOW,
    schema: DailyDeliveryRowSchema,
    key: ['date', 'customer_id', 'department_id', 'item_id'],
    fold: {
      params: { ...CUSTOMER, department_id: param('departmentId'), item_id: param('itemId') },
      window: { property: 'date', kind: 'day', capped: true },
    },
    list: (c, p) => call(c.deliveries.daily, p),
  }),
  topLevel({
    name: 'Inventory',
    typeName: 'InventoryTotal',
    schema: InventoryTotalSchema,
    key: ['customer_id', 'item_id'],
    fold: { params: CUSTOMER, customers: 'echo' },
    list: (c, p) => call(c.inventory.totals, p),
  }),
  topLevel({
    name: 'ParLevels',
    typeName: 'ParLevel',
    schema: ParLevelSchema,
    key: ['customer_id', 'department_id', 'item_id'],
    fold: { params: { ...CUSTOMER, department_id: param('departmentId') } },
    list: (c, p) => call(c.inventory.par, p),
  }),
  topLevel({
    name: 'Units',
    typeName: 'Unit',
    schema: UnitSchema,
    key: 'id',
    fold: { params: CUSTOMER },
    list: (c, p) => call(c.inventory.units, p),
  }),
  topLevel({
    name: 'Carts',
    typeName: 'Cart',
    description: "A cart's par lines are the set CartPars.",
    schema: CartSchema,
    omit: ['par'],
    key: 'id',
    fold: { params: { ...CUSTOMER, unit_id: param('unitId') } },
    list: (c, p) => call(c.inventory.carts, p),
  }),
  lineSet({
    name: 'CartPars',
    typeName: 'CartPar',
    description: "One row per item of a cart's live par (the API's par list of each cart).",
    schema: CartSchema,
    lines: 'par',
    parent: [['id', 'cart_id'], ['name', 'cart_name'], 'customer_id', 'unit_id', 'unit_name', 'is_active'],
    key: ['cart_id', 'item_id'],
    fold: { params: { ...CUSTOMER, unit_id: param('unitId') } },
    list: (c, p) => call(c.inventory.carts, p),
  }),
  lineSet({
    name: 'CartCounts',
    typeName: 'CartCountLine',
    description: `One row per line of a cart count, with the count's fields (id is the count's). ${DEFAULT_WINDOW}`,
    schema: CartCountSchema,
    lines: 'lines',
    parent: [
      'id',
      'customer_id',
      'cart_id',
      'cart_name',
      'unit_id',
      'unit_name',
      'date',
      'status',
      'unscheduled',
      'counted_at',
      'verified_at',
    ],
    key: ['id', 'item_id'],
    fold: {
      params: {
        ...CUSTOMER,
        unit_id: param('unitId'),
        cart_id: param('cartId'),
        status: param('status', COUNT_STATUSES),
      },
      window: { property: 'date', kind: 'day', capped: true },
    },
    list: (c, p) => call(c.inventory.counts, p),
  }),
  topLevel({
    name: 'InventoryBalances',
    typeName: 'InventoryBalance',
    schema: BalanceByStatusSchema,
    key: ['customer_id', 'item_id', 'status'],
    fold: { params: { ...CUSTOMER, item_id: param('itemId') }, customers: 'echo' },
    list: (c, p) => call(c.inventory.balances, p),
  }),
  topLevel({
    name: 'Signals',
    typeName: 'Signal',
    description:
      'Every status (the API lists only open and acknowledged signals unless asked for a status, so the feed asks for each).',
    schema: InventorySignalSchema,
    key: 'id',
    fold: {
      params: { ...CUSTOMER, kind: param('kind'), status: param('status', SIGNAL_STATUSES) },
      everyValue: { property: 'status', values: SIGNAL_STATUSES },
    },
    list: (c, p) => call(c.inventory.signals, p),
  }),
  topLevel({
    name: 'NewLinen',
    typeName: 'NewLinenInjection',
    description: "An injection's items are the set NewLinenItems.",
    schema: NewLinenInjectionSchema,
    omit: ['items'],
    key: 'id',
    fold: { params: CUSTOMER, window: { property: 'date', kind: 'day' } },
    list: (c, p) => call(c.newLinen.list, p),
  }),
  lineSet({
    name: 'NewLinenItems',
    typeName: 'NewLinenItem',
    description: 'One row per item of a new-linen injection (manifest_id is the injection).',
    schema: NewLinenInjectionSchema,
    lines: 'items',
    parent: [['id', 'manifest_id'], 'manifest_number', 'date', 'customer_id', 'department_id'],
    key: ['manifest_id', 'item_id'],
    fold: { params: CUSTOMER, window: { property: 'date', kind: 'day' } },
    list: (c, p) => call(c.newLinen.list, p),
  }),
  topLevel({
    name: 'Rewash',
    typeName: 'RewashBatch',
    description: "A batch's outcomes are the set RewashOutcomes.",
    schema: RewashBatchSchema,
    omit: ['outcomes'],
    complex: { parent_manifest: 'ManifestRef', consumed_by_manifest: 'ConsumingManifest' },
    key: 'id',
    fold: {
      params: { ...CUSTOMER, status: param('status', REWASH_STATUSES) },
      window: { property: 'discovered_at', kind: 'instant' },
    },
    list: (c, p) => call(c.rewash.list, p),
  }),
  lineSet({
    name: 'RewashOutcomes',
    typeName: 'RewashOutcome',
    description: 'One row per outcome of a rewash batch.',
    schema: RewashBatchSchema,
    lines: 'outcomes',
    parent: [['id', 'rewash_id'], 'customer_id', 'department_id', 'discovered_at', 'status'],
    key: ['rewash_id', '#'],
    fold: {
      params: { ...CUSTOMER, status: param('status', REWASH_STATUSES) },
      window: { property: 'discovered_at', kind: 'instant' },
    },
    list: (c, p) => call(c.rewash.list, p),
  }),
  topLevel({
    name: 'Invoices',
    typeName: 'Invoice',
    description: 'pdf_url is left out: the link expires within 15 minutes and opens only with the key in a header.',
    schema: InvoiceSchema,
    omit: ['pdf_url'],
    key: 'id',
    fold: {
      params: { ...CUSTOMER, status: param('status', INVOICE_STATUSES) },
      window: { property: 'issued_at', kind: 'instant' },
    },
    list: (c, p) => call(c.invoices.list, p),
  }),
  topLevel({
    name: 'Payments',
    typeName: 'Payment',
    description: "A payment's allocations are the set PaymentAllocations.",
    schema: PaymentSchema,
    omit: ['allocations'],
    key: 'id',
    fold: { params: CUSTOMER, window: { property: 'received_at', kind: 'instant' } },
    list: (c, p) => call(c.payments.list, p),
  }),
  lineSet({
    name: 'PaymentAllocations',
    typeName: 'PaymentAllocation',
    description:
      "One row per invoice a payment paid; invoice_id and invoice_number are null for an invoice outside the key's customers.",
    schema: PaymentSchema,
    lines: 'allocations',
    parent: [['id', 'payment_id'], 'customer_id', 'received_at', 'currency'],
    key: ['payment_id', '#'],
    fold: { params: CUSTOMER, window: { property: 'received_at', kind: 'instant' } },
    list: (c, p) => call(c.payments.list, p),
  }),
  topLevel({
    name: 'Balances',
    typeName: 'Balance',
    schema: BalanceRowSchema,
    complex: { aging: 'Aging' },
    key: 'customer_id',
    fold: { params: CUSTOMER },
    list: (c, p) => call(c.balance.list, p),
  }),
  topLevel({
    name: 'PurchaseOrders',
    typeName: 'PurchaseOrder',
    schema: PurchaseOrderSchema,
    key: 'id',
    fold: {
      params: { ...CUSTOMER, status: param('status', PO_STATUSES) },
      window: { property: 'started_at', kind: 'instant' },
    },
    list: (c, p) => call(c.purchaseOrders.list, p),
  }),
  topLevel({
    name: 'Orders',
    typeName: 'Order',
    schema: OrderSchema,
    key: 'id',
    fold: {
      params: { ...CUSTOMER, stage: param('stage', ORDER_STAGES) },
      window: { property: 'placed_at', kind: 'instant' },
    },
    list: (c, p) => call(c.orders.list, p),
  }),
  topLevel({
    name: 'QualityTickets',
    typeName: 'QualityTicket',
    description:
      'Tagged with their customer: one listing per customer (a ticket names none). Events are the set QualityTicketEvents.',
    schema: QualityTicketSchema,
    omit: ['customer_visible_events'],
    key: 'id',
    fold: {
      params: { ...CUSTOMER, status: param('status', TICKET_STATUSES) },
      window: { property: 'created_at', kind: 'instant' },
      customers: 'each',
    },
    list: (c, p) => call(c.qualityTickets.list, p),
  }),
  lineSet({
    name: 'QualityTicketEvents',
    typeName: 'QualityTicketEvent',
    description: "One row per event a ticket's customer sees, oldest first.",
    schema: QualityTicketSchema,
    lines: 'customer_visible_events',
    parent: [['id', 'ticket_id'], 'ticket_number', ['created_at', 'ticket_created_at']],
    key: ['ticket_id', '#'],
    fold: {
      params: { ...CUSTOMER },
      window: { property: 'ticket_created_at', kind: 'instant' },
      customers: 'each',
    },
    list: (c, p) => call(c.qualityTickets.list, p),
  }),
  topLevel({
    name: 'Ratings',
    typeName: 'Rating',
    schema: RatingSchema,
    key: 'id',
    fold: { params: CUSTOMER, window: { property: 'created_at', kind: 'instant' } },
    list: (c, p) => call(c.ratings.list, p),
  }),
];

const BY_NAME = new Map(ENTITY_SETS.map((s) => [s.name, s]));

export const entitySet = (name: string): EntitySet | undefined => BY_NAME.get(name);
