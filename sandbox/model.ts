/**
 * The sandbox's in-memory data model.
 *
 * Records are stored in their wire shape (snake_case, exactly the fields of `docs/linen-api-v1.md`), so an
 * endpoint is a filter plus a projection. What the wire never shows (hidden invoice statuses, weight
 * overrides, which customers a key sees) lives beside the records, never inside a wire field.
 */

export type Scope = 'processing' | 'accounting' | 'direct_sales';

/** An ISO 8601 UTC timestamp with milliseconds and a Z suffix. */
export type Timestamp = string;
/** A `YYYY-MM-DD` calendar day in the organization's timezone. */
export type LocalDate = string;

export interface Organization {
  name: string;
  /** IANA timezone in which every `from`/`to`/`date` is read. */
  time_zone: string;
  /** Prefix of invoice numbers: `<PREFIX>-<YY>-<sequence>`. */
  invoice_prefix: string;
  /** `variance_within_tolerance` is true when min <= variance_pct <= max. */
  variance_tolerance: { min: number; max: number };
  /** When true, `soil_rewash_lb` and `error_rewash_lb` are null everywhere. */
  hides_rewash_fault_split: boolean;
}

export interface ApiKey {
  /** The full secret, including its fixed live-key prefix. */
  secret: string;
  /** A non-secret identifier, carried by signed PDF links. */
  key_id: string;
  label: string;
  customer_ids: string[];
  scopes: Scope[];
  revoked: boolean;
  /** When set, the key's user counts only these units: units, carts and counts are limited to them. */
  unit_ids?: string[];
}

export interface DepartmentRef {
  id: string;
  name: string;
}

export interface Customer {
  id: string;
  name: string;
  is_group: boolean;
  created_at: Timestamp;
  departments: DepartmentRef[];
}

export interface Department {
  id: string;
  customer_id: string;
  name: string;
  cost_center_code: string | null;
}

export interface Item {
  id: string;
  sku: string;
  name: string;
  category: string | null;
  unit_of_measure: string;
  /** Catalog default weight per piece. */
  weight_lb: number | null;
}

export type ManifestType = 'normal' | 'rewash' | 'new_linen';
export type ManifestStatus = 'collected' | 'received' | 'cleaned' | 'staged' | 'delivered';

export interface BinItem {
  item_id: string;
  item_name: string;
  piece_count: number;
  /** Sandbox values: `clean` (delivered), `rewash_hold`, `damaged`. Only `clean` counts as delivered. */
  disposition: string;
}

export interface Bin {
  id: string;
  side: 'soil' | 'clean';
  /** Sandbox values: `mixed_linen`, `towels`, `sheets`, `garments`, `new_linen`. */
  content: string;
  bin_ticket_number: string;
  gross_lb: number;
  tare_lb: number;
  net_lb: number;
  items: BinItem[];
}

export interface ManifestRef {
  id: string;
  manifest_number: string;
}

export interface Manifest {
  id: string;
  manifest_number: string;
  type: ManifestType;
  status: ManifestStatus;
  customer_id: string;
  department_id: string | null;
  department_name: string | null;
  created_at: Timestamp;
  picked_up_at: Timestamp | null;
  received_at: Timestamp | null;
  cleaned_at: Timestamp | null;
  staged_at: Timestamp | null;
  delivered_at: Timestamp | null;
  soil_weight_lb: number | null;
  clean_weight_lb: number | null;
  clean_piece_count: number | null;
  variance_pct: number | null;
  variance_within_tolerance: boolean | null;
  parent_manifest_id: string | null;
  amount_cents: number | null;
  currency: 'usd';
  // detail-only fields (GET /manifests/{id})
  bins: Bin[];
  held_rewash: {
    held_weight_lb: number;
    status: string;
    soil_rewash_lb: number | null;
    error_rewash_lb: number | null;
  } | null;
  rewash_links: { parent_manifest: ManifestRef | null; rewash_children: ManifestRef[] };
  signature: { signed_by_name: string | null; signed_by_title: string | null; delivered_at: Timestamp | null };
}

export interface DailyDeliveryRow {
  date: LocalDate;
  customer_id: string;
  customer_name: string;
  department_id: string | null;
  department_name: string | null;
  item_id: string;
  item_name: string;
  delivered_count: number;
  daily_par: number | null;
  fill_rate: number | null;
}

/** Inventory of one item at one customer; `/inventory/totals` sums these over the visible customers. */
export interface InventoryPosition {
  customer_id: string;
  item_id: string;
  item_name: string;
  new: number;
  in_reserve: number;
  in_plant: number;
  in_transit: number;
  at_customer: number;
  /** Units in each retired state, keyed by the full status (`retired_lost`, `retired_damaged`, ...). */
  retired: Record<string, number>;
}

export interface ParLevel {
  customer_id: string;
  department_id: string | null;
  department_name: string | null;
  item_id: string;
  item_name: string;
  par_quantity: number;
  par_unit: 'pieces' | 'cart_loads';
  reorder_threshold: number;
}

export interface Unit {
  id: string;
  customer_id: string;
  name: string;
  building: string | null;
  floor: string | null;
  unit_type: string | null;
  cost_center: string | null;
  cart_count: number;
  is_active: boolean;
}

export type Weekday = 'sun' | 'mon' | 'tue' | 'wed' | 'thu' | 'fri' | 'sat';

export interface Cart {
  id: string;
  customer_id: string;
  unit_id: string;
  name: string;
  unit_name: string | null;
  kind: 'cart' | 'closet' | 'linen_room' | 'exchange_cart';
  stocking_method: 'fixed' | 'census';
  count_days: Weekday[];
  is_active: boolean;
  par: { item_id: string; item_name: string; par_quantity: number }[];
}

export type CartCountStatus = 'pending' | 'in_progress' | 'counted' | 'verified' | 'assumed';

export interface CartCount {
  id: string;
  customer_id: string;
  cart_id: string;
  cart_name: string | null;
  unit_id: string | null;
  unit_name: string | null;
  date: LocalDate;
  status: CartCountStatus;
  unscheduled: boolean;
  counted_at: Timestamp | null;
  verified_at: Timestamp | null;
  lines: {
    item_id: string;
    item_name: string;
    par: number;
    on_hand: number;
    required: number;
    delivered: number;
    extra: number;
    returned: number;
  }[];
}

export type SignalStatus = 'open' | 'acknowledged' | 'dismissed' | 'resolved';

export interface InventorySignal {
  id: string;
  /** Open-ended: the spec's seven kinds plus at least one the spec does not list. */
  kind: string;
  severity: 'low' | 'medium' | 'high';
  status: SignalStatus;
  customer_id: string | null;
  department_id: string | null;
  item_id: string | null;
  item_name: string | null;
  summary: string;
  suggested_order_qty: number | null;
  window_start: LocalDate;
  window_end: LocalDate;
  generated_at: Timestamp;
}

export interface NewLinenInjection {
  id: string;
  manifest_number: string;
  date: LocalDate | null;
  customer_id: string;
  department_id: string | null;
  direction: 'in';
  soil_weight_lb: number | null;
  injected_weight_lb: number | null;
  items: { item_id: string; item_name: string; piece_count: number }[];
}

export interface RewashBatch {
  id: string;
  customer_id: string;
  department_id: string | null;
  discovered_at: Timestamp;
  status: 'pending' | 'consumed' | 'voided';
  held_weight_lb: number | null;
  soil_rewash_lb: number | null;
  error_rewash_lb: number | null;
  parent_manifest: ManifestRef;
  consumed_by_manifest: (ManifestRef & { delivered_at: Timestamp | null }) | null;
  /** Sandbox `fault_class` values: `soil`, `processing_error`. */
  outcomes: { fault_class: string; good_lb: number; damage_lb: number }[];
}

/** Every invoice status the provider has; only the public three are ever served. */
export type InvoiceStatus = 'draft' | 'sent' | 'partially_paid' | 'paid' | 'void' | 'written_off';
export const PUBLIC_INVOICE_STATUSES = ['sent', 'partially_paid', 'paid'] as const;

export interface Invoice {
  id: string;
  invoice_number: string;
  status: InvoiceStatus;
  customer_id: string;
  department_id: string | null;
  issued_at: Timestamp;
  due_at: Timestamp | null;
  sent_at: Timestamp;
  paid_at: Timestamp | null;
  subtotal_cents: number;
  surcharges_cents: number;
  tax_cents: number;
  total_cents: number;
  balance_cents: number;
  currency: string;
  /** Internal: the purchase order this invoice drew down, if any. Not a wire field. */
  purchase_order_id: string | null;
}

export interface Payment {
  id: string;
  customer_id: string;
  kind: 'card' | 'ach' | 'check' | 'cash' | 'credit_memo' | 'write_off';
  status: 'settled' | 'returned' | 'failed';
  amount_cents: number;
  currency: string;
  received_at: Timestamp;
  returned_at: Timestamp | null;
  /** Stored with the real invoice ids; the endpoint nulls those outside the key's customers. */
  allocations: { invoice_id: string; invoice_number: string; amount_cents: number }[];
}

export interface PurchaseOrder {
  id: string;
  customer_id: string;
  po_number: string;
  status: 'pending' | 'active' | 'closed' | 'cancelled';
  total_cents: number;
  spent_cents: number;
  remaining_cents: number;
  currency: string;
  started_at: Timestamp;
  expires_at: Timestamp;
}

export type OrderStage = 'draft' | 'submitted' | 'in_production' | 'shipped' | 'delivered' | 'cancelled';

export interface OrderCharge {
  id: string;
  /** e.g. `embroidery`, `emblem`, `hemming` on lines; `shipping`, `rush` on the order. */
  kind: string;
  description: string;
  quantity: number;
  /** 1/1000 of a dollar. */
  unit_price_mills: number;
  /** round(quantity * unit_price_mills / 10). */
  amount_cents: number;
}

export interface OrderLine {
  id: string;
  line_number: number;
  sku: string;
  description: string;
  size: string | null;
  color: string | null;
  quantity: number;
  unit_price_cents: number;
  charges: OrderCharge[];
  /** quantity * unit_price_cents + sum of the line's charges. */
  subtotal_cents: number;
}

export interface DirectSalesOrder {
  id: string;
  order_number: string;
  stage: OrderStage;
  customer_id: string;
  placed_at: Timestamp | null;
  requested_delivery_date: Timestamp | null;
  confirmed_delivery_date: Timestamp | null;
  delivered_at: Timestamp | null;
  subtotal_cents: number;
  total_cents: number;
  currency: 'usd';
  orderer_name: string | null;
  wearer_name: string | null;
  wearer_department: string | null;
  delivery_location: string | null;
  po_number: string | null;
  line_count: number;
  // detail-only (GET /orders/{id})
  lines: OrderLine[];
  /** Order-level charges; total_cents = subtotal_cents + their sum. */
  charges: OrderCharge[];
}

export type TicketStatus = 'new' | 'acknowledged' | 'in_progress' | 'resolved' | 'verified';

export interface QualityTicket {
  id: string;
  ticket_number: string;
  kind: string;
  kind_label: string;
  status: TicketStatus;
  status_label: 'Submitted' | 'Acknowledged' | 'In progress' | 'Resolved';
  subject: string;
  created_at: Timestamp;
  acknowledged_at: Timestamp | null;
  resolved_at: Timestamp | null;
  last_correspondence_at: Timestamp | null;
  resolution_note: string | null;
  /** Oldest first. Sandbox `event_type`s: `created`, `acknowledged`, `comment`, `status_changed`, `resolved`;
   *  `actor_kind`s: `customer`, `provider`, `system`. */
  customer_visible_events: { event_type: string; actor_kind: string; body: string | null; created_at: Timestamp }[];
  /** Internal: the ticket's customer (a ticket is visible to keys that see this customer). Not a wire field. */
  customer_id: string;
}

export interface Rating {
  id: string;
  customer_id: string;
  manifest_id: string;
  manifest_number: string | null;
  on_time: boolean | null;
  quality_rating: number;
  note: string | null;
  created_at: Timestamp;
}

/** Everything the sandbox serves. Arrays are in the order the API lists them (see sandbox/README.md). */
export interface SandboxData {
  organization: Organization;
  /** Start of the seeded history and "today" when the data was generated, both org-local days. */
  seeded: { first_day: LocalDate; today: LocalDate };
  keys: ApiKey[];
  customers: Customer[];
  departments: Department[];
  items: Item[];
  /** Which items each customer's catalog holds (customer and department catalogs merged). */
  customer_items: Record<string, string[]>;
  /** Per-customer piece weights that override the catalog default: customer id -> item id -> lb. */
  weight_overrides: Record<string, Record<string, number>>;
  manifests: Manifest[];
  daily_deliveries: DailyDeliveryRow[];
  inventory: InventoryPosition[];
  pars: ParLevel[];
  units: Unit[];
  carts: Cart[];
  cart_counts: CartCount[];
  signals: InventorySignal[];
  new_linen: NewLinenInjection[];
  rewash_batches: RewashBatch[];
  invoices: Invoice[];
  payments: Payment[];
  purchase_orders: PurchaseOrder[];
  orders: DirectSalesOrder[];
  tickets: QualityTicket[];
  ratings: Rating[];
}
