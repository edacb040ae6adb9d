/**
 * Every resource of docs/linen-api-v1.md as a field table, transcribed from the spec. `checkShape` asserts a row has
 * exactly these fields (nothing internal leaks, nothing is missing) with these types.
 *
 * Type codes: s string, i integer, n number, b boolean, ts timestamp (ISO UTC with ms and Z), d YYYY-MM-DD,
 * w weight (pounds, one decimal), a array, o object; a trailing ? means nullable. An array value is an enum.
 */
type FieldType = string | readonly string[] | { nullable: readonly string[] };
export type Shape = Record<string, FieldType>;

export const SHAPES = {
  customer: { id: 's', name: 's', is_group: 'b', created_at: 'ts', departments: 'a' },
  department: { id: 's', customer_id: 's', name: 's', cost_center_code: 's?' },
  item: { id: 's', sku: 's', name: 's', category: 's?', unit_of_measure: 's', weight_lb: 'w?' },
  manifest: {
    id: 's',
    manifest_number: 's',
    type: ['normal', 'rewash', 'new_linen'],
    status: ['collected', 'received', 'cleaned', 'staged', 'delivered'],
    customer_id: 's',
    department_id: 's?',
    department_name: 's?',
    created_at: 'ts',
    picked_up_at: 'ts?',
    received_at: 'ts?',
    cleaned_at: 'ts?',
    staged_at: 'ts?',
    delivered_at: 'ts?',
    soil_weight_lb: 'w?',
    clean_weight_lb: 'w?',
    clean_piece_count: 'i?',
    variance_pct: 'n?',
    variance_within_tolerance: 'b?',
    parent_manifest_id: 's?',
    amount_cents: 'i?',
    currency: ['usd'],
  },
  manifestDetailExtra: { bins: 'a', held_rewash: 'o?', rewash_links: 'o', signature: 'o' },
  bin: {
    id: 's',
    side: ['soil', 'clean'],
    content: 's',
    bin_ticket_number: 's',
    gross_lb: 'w',
    tare_lb: 'w',
    net_lb: 'w',
    items: 'a',
  },
  dailyDelivery: {
    date: 'd',
    customer_id: 's',
    customer_name: 's',
    department_id: 's?',
    department_name: 's?',
    item_id: 's',
    item_name: 's',
    delivered_count: 'i',
    daily_par: 'i?',
    fill_rate: 'n?',
  },
  inventoryTotal: {
    item_id: 's',
    item_name: 's',
    total_owned: 'i',
    at_customer: 'i',
    at_facility: 'i',
    in_transit: 'i',
    retired: 'i',
  },
  par: {
    customer_id: 's',
    department_id: 's?',
    department_name: 's?',
    item_id: 's',
    item_name: 's',
    par_quantity: 'i',
    par_unit: ['pieces', 'cart_loads'],
    reorder_threshold: 'i',
  },
  unit: {
    id: 's',
    customer_id: 's',
    name: 's',
    building: 's?',
    floor: 's?',
    unit_type: 's?',
    cost_center: 's?',
    cart_count: 'i',
    is_active: 'b',
  },
  cart: {
    id: 's',
    customer_id: 's',
    unit_id: 's',
    name: 's',
    unit_name: 's?',
    kind: ['cart', 'closet', 'linen_room', 'exchange_cart'],
    stocking_method: ['fixed', 'census'],
    count_days: 'a',
    is_active: 'b',
    par: 'a',
  },
  cartCount: {
    id: 's',
    customer_id: 's',
    cart_id: 's',
    cart_name: 's?',
    unit_id: 's?',
    unit_name: 's?',
    date: 'd',
    status: ['pending', 'in_progress', 'counted', 'verified', 'assumed'],
    unscheduled: 'b',
    counted_at: 'ts?',
    verified_at: 'ts?',
    lines: 'a',
  },
  balanceByStatus: { item_id: 's', item_name: 's', status: 's', quantity: 'i' },
  signal: {
    id: 's',
    kind: 's',
    severity: ['low', 'medium', 'high'],
    status: ['open', 'acknowledged', 'dismissed', 'resolved'],
    customer_id: 's?',
    department_id: 's?',
    item_id: 's?',
    item_name: 's?',
    summary: 's',
    suggested_order_qty: 'i?',
    window_start: 'd',
    window_end: 'd',
    generated_at: 'ts',
  },
  newLinen: {
    id: 's',
    manifest_number: 's',
    date: 'd?',
    customer_id: 's',
    department_id: 's?',
    direction: ['in'],
    soil_weight_lb: 'w?',
    injected_weight_lb: 'w?',
    items: 'a',
  },
  rewash: {
    id: 's',
    customer_id: 's',
    department_id: 's?',
    discovered_at: 'ts',
    status: ['pending', 'consumed', 'voided'],
    held_weight_lb: 'w?',
    soil_rewash_lb: 'w?',
    error_rewash_lb: 'w?',
    parent_manifest: 'o',
    consumed_by_manifest: 'o?',
    outcomes: 'a',
  },
  invoice: {
    id: 's',
    invoice_number: 's',
    status: ['sent', 'partially_paid', 'paid'],
    customer_id: 's',
    department_id: 's?',
    issued_at: 'ts',
    due_at: 'ts?',
    sent_at: 'ts',
    paid_at: 'ts?',
    subtotal_cents: 'i',
    surcharges_cents: 'i',
    tax_cents: 'i',
    total_cents: 'i',
    balance_cents: 'i',
    currency: 's',
    pdf_url: 's',
  },
  payment: {
    id: 's',
    customer_id: 's',
    kind: ['card', 'ach', 'check', 'cash', 'credit_memo', 'write_off'],
    status: ['settled', 'returned', 'failed'],
    amount_cents: 'i',
    currency: 's',
    received_at: 'ts',
    returned_at: 'ts?',
    allocations: 'a',
  },
  balance: { customer_id: 's', customer_name: 's', balance_cents: 'i', currency: 's', aging: 'o' },
  purchaseOrder: {
    id: 's',
    customer_id: 's',
    po_number: 's',
    status: ['pending', 'active', 'closed', 'cancelled'],
    total_cents: 'i',
    spent_cents: 'i',
    remaining_cents: 'i',
    currency: 's',
    started_at: 'ts',
    expires_at: 'ts',
  },
  order: {
    id: 's',
    order_number: 's',
    stage: ['draft', 'submitted', 'in_production', 'shipped', 'delivered', 'cancelled'],
    customer_id: 's',
    placed_at: 'ts?',
    requested_delivery_date: 'ts?',
    confirmed_delivery_date: 'ts?',
    delivered_at: 'ts?',
    subtotal_cents: 'i',
    total_cents: 'i',
    currency: ['usd'],
    orderer_name: 's?',
    wearer_name: 's?',
    wearer_department: 's?',
    delivery_location: 's?',
    po_number: 's?',
    line_count: 'i',
  },
  ticket: {
    id: 's',
    ticket_number: 's',
    kind: 's',
    kind_label: 's',
    status: ['new', 'acknowledged', 'in_progress', 'resolved', 'verified'],
    status_label: ['Submitted', 'Acknowledged', 'In progress', 'Resolved'],
    subject: 's',
    created_at: 'ts',
    acknowledged_at: 'ts?',
    resolved_at: 'ts?',
    last_correspondence_at: 'ts?',
    resolution_note: 's?',
    customer_visible_events: 'a',
  },
  rating: {
    id: 's',
    customer_id: 's',
    manifest_id: 's',
    manifest_number: 's?',
    on_time: 'b?',
    quality_rating: 'i',
    note: 's?',
    created_at: 'ts',
  },
  heldRewash: { held_weight_lb: 'w', status: 's', soil_rewash_lb: 'w?', error_rewash_lb: 'w?' },
  agingBuckets: { current: 'i', d1_30: 'i', d31_60: 'i', d61_plus: 'i' },
  allocation: { invoice_id: 's?', invoice_number: 's?', amount_cents: 'i' },
} satisfies Record<string, Shape>;

const TS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const DAY = /^\d{4}-\d{2}-\d{2}$/;

function typeProblem(value: unknown, type: FieldType): string | null {
  if (typeof type === 'object' && !Array.isArray(type)) {
    const allowed = (type as { nullable: readonly string[] }).nullable;
    return value === null || allowed.includes(value as string) ? null : `not one of null|${allowed.join('|')}`;
  }
  if (Array.isArray(type)) return type.includes(value as string) ? null : `not one of ${type.join('|')}`;
  const code = type as string;
  const nullable = code.endsWith('?');
  if (value === null) return nullable ? null : 'null';
  switch (code.replace('?', '')) {
    case 's':
      return typeof value === 'string' ? null : 'not a string';
    case 'i':
      return Number.isInteger(value) ? null : 'not an integer';
    case 'n':
      return typeof value === 'number' && Number.isFinite(value) ? null : 'not a number';
    case 'w':
      return typeof value === 'number' && Math.round(value * 10) / 10 === value ? null : 'not a one-decimal weight';
    case 'b':
      return typeof value === 'boolean' ? null : 'not a boolean';
    case 'ts':
      return typeof value === 'string' && TS.test(value) && !Number.isNaN(Date.parse(value)) ? null : 'not a timestamp';
    case 'd':
      return typeof value === 'string' && DAY.test(value) ? null : 'not a YYYY-MM-DD day';
    case 'a':
      return Array.isArray(value) ? null : 'not an array';
    case 'o':
      return typeof value === 'object' && !Array.isArray(value) ? null : 'not an object';
    default:
      return `unknown type code ${code}`;
  }
}

/** Lists every way `row` differs from `shape`: missing fields, extra fields, wrong types. */
export function shapeProblems(row: Record<string, unknown>, shape: Shape, where = 'row'): string[] {
  const problems: string[] = [];
  for (const [field, type] of Object.entries(shape)) {
    if (!(field in row)) problems.push(`${where}.${field} is missing`);
    else {
      const problem = typeProblem(row[field], type);
      if (problem) problems.push(`${where}.${field} = ${JSON.stringify(row[field])}: ${problem}`);
    }
  }
  for (const field of Object.keys(row)) if (!(field in shape)) problems.push(`${where}.${field} is not in the spec`);
  return problems;
}
