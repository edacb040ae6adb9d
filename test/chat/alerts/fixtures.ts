/**
 * Records shaped as the API sends them, and listings served from arrays, for the alert kinds' pure tests: each
 * record starts from a plain default and a test changes only what its rule is about.
 */
import type { AlertReads, AlertScope, CheckTime, Token } from '../../../chat/alerts/kind.ts';
import type { Content } from '../../../chat/content/document.ts';
import { CONTENT_LIMITS, measure } from '../../../chat/content/limits.ts';
import type {
  CartCount,
  Customer,
  DailyDeliveryRow,
  Department,
  InventorySignal,
  Invoice,
  PurchaseOrder,
  QualityTicket,
  Unit,
} from '../../../shared/index.ts';

export const TZ = 'America/Chicago';
export const TODAY = '2026-11-05';
export const YESTERDAY = '2026-11-04';
/** Noon in Chicago. */
export const TIME: CheckTime = { now: new Date('2026-11-05T18:00:00Z'), today: TODAY, yesterday: YESTERDAY };

export const customer = (id: string, name: string, more: Partial<Customer> = {}): Customer => ({
  id,
  name,
  is_group: false,
  created_at: '2020-01-01T00:00:00Z',
  departments: [],
  ...more,
});

/** A small organization: a group, its two locations (found by name) and a customer of its own. */
export const GROUP = customer('c_group', 'Mercy Health', { is_group: true });
export const GENERAL = customer('c_general', 'Mercy General Hospital', {
  departments: [
    { id: 'd_icu', name: 'ICU' },
    { id: 'd_surgery', name: 'Surgery' },
  ],
});
export const WEST = customer('c_west', 'Mercy West Surgery Center');
export const HOTEL = customer('c_hotel', 'Harborview Hotel');
export const CUSTOMERS = [GROUP, GENERAL, WEST, HOTEL];
export const NAMES: ReadonlyMap<string, string> = new Map(CUSTOMERS.map((c) => [c.id, c.name]));

export const DEPARTMENTS: Department[] = [
  { id: 'd_icu', customer_id: 'c_general', name: 'ICU', cost_center_code: 'MGH-4010' },
  { id: 'd_surgery', customer_id: 'c_general', name: 'Surgery', cost_center_code: 'MGH-4030' },
];

export const unit = (id: string, name: string, more: Partial<Unit> = {}): Unit => ({
  id,
  customer_id: 'c_general',
  name,
  building: null,
  floor: null,
  unit_type: null,
  cost_center: null,
  cart_count: 1,
  is_active: true,
  ...more,
});

export const UNITS: Unit[] = [
  unit('u_icu', 'ICU North', { cost_center: 'MGH-4010' }),
  unit('u_or', 'Surgical Services', { cost_center: 'MGH-4030' }),
  unit('u_ld', 'Labor & Delivery'),
  unit('u_west', 'Pre-Op Bay', { customer_id: 'c_west' }),
];

let next = 0;
const nextId = (prefix: string) => `${prefix}${++next}`;

type CountLine = CartCount['lines'][number];
export const countLine = (item: string, required: number, delivered: number): CountLine => ({
  item_id: `i_${item}`,
  item_name: item,
  par: required,
  on_hand: 0,
  required,
  delivered,
  extra: 0,
  returned: 0,
});

export const cartCount = (more: Partial<CartCount> = {}): CartCount => ({
  id: nextId('cc_'),
  customer_id: 'c_general',
  cart_id: nextId('cart_'),
  cart_name: 'ICU North Cart A',
  unit_id: 'u_icu',
  unit_name: 'ICU North',
  date: TODAY,
  status: 'counted',
  unscheduled: false,
  counted_at: '2026-11-05T12:30:00Z',
  verified_at: null,
  lines: [countLine('Bath Towel', 40, 30)],
  ...more,
});

export const signal = (more: Partial<InventorySignal> = {}): InventorySignal => ({
  id: nextId('sig_'),
  kind: 'shortfall_streak',
  severity: 'medium',
  status: 'open',
  customer_id: 'c_general',
  department_id: 'd_icu',
  item_id: 'i_towel',
  item_name: 'Bath Towel',
  summary: 'Bath Towel delivered below par 5 days running',
  suggested_order_qty: null,
  window_start: '2026-10-29',
  window_end: YESTERDAY,
  generated_at: '2026-11-05T08:00:00Z',
  ...more,
});

export const ticket = (more: Partial<QualityTicket> = {}): QualityTicket => ({
  id: nextId('tkt_'),
  ticket_number: `TKT-26-${String(400 + next).padStart(5, '0')}`,
  kind: 'stain',
  kind_label: 'Stain',
  status: 'new',
  status_label: 'Submitted',
  subject: 'Stained sheets on 4 West',
  created_at: '2026-11-05T15:00:00Z',
  acknowledged_at: null,
  resolved_at: null,
  last_correspondence_at: null,
  resolution_note: null,
  customer_visible_events: [],
  ...more,
});

export const invoice = (more: Partial<Invoice> = {}): Invoice => ({
  id: nextId('inv_'),
  invoice_number: `PLS-26-${String(next).padStart(6, '0')}`,
  status: 'sent',
  customer_id: 'c_general',
  department_id: null,
  issued_at: '2026-08-01T12:00:00Z',
  due_at: '2026-09-01T12:00:00Z',
  sent_at: '2026-08-01T12:00:00Z',
  paid_at: null,
  subtotal_cents: 100_000,
  surcharges_cents: 0,
  tax_cents: 0,
  total_cents: 100_000,
  balance_cents: 100_000,
  currency: 'usd',
  pdf_url: 'https://api.example.test/files/invoice/x',
  ...more,
});

export const purchaseOrder = (more: Partial<PurchaseOrder> = {}): PurchaseOrder => ({
  id: nextId('po_'),
  customer_id: 'c_general',
  po_number: `PO-${next}`,
  status: 'active',
  total_cents: 1_000_000,
  spent_cents: 900_000,
  remaining_cents: 100_000,
  currency: 'usd',
  started_at: '2026-01-01T12:00:00Z',
  expires_at: '2026-12-31T12:00:00Z',
  ...more,
});

export const deliveryRow = (more: Partial<DailyDeliveryRow> = {}): DailyDeliveryRow => ({
  date: YESTERDAY,
  customer_id: 'c_general',
  customer_name: 'Mercy General Hospital',
  department_id: 'd_icu',
  department_name: 'ICU',
  item_id: 'i_towel',
  item_name: 'Bath Towel',
  delivered_count: 80,
  daily_par: 100,
  fill_rate: 0.8,
  ...more,
});

export interface Listings {
  customers: Customer[];
  counts: CartCount[];
  units: Unit[];
  departments: Department[];
  signals: InventorySignal[];
  tickets: Record<string, QualityTicket[]>;
  invoices: Invoice[];
  purchaseOrders: PurchaseOrder[];
  deliveries: DailyDeliveryRow[];
}

/**
 * Listings served as given, whatever day is asked (so a test can put another day's records in and see the kind
 * leave them out), with the calls each one received.
 */
export function fakeReads(given: Partial<Listings> = {}): AlertReads & { calls: string[] } {
  const l: Listings = {
    customers: CUSTOMERS,
    counts: [],
    units: UNITS,
    departments: DEPARTMENTS,
    signals: [],
    tickets: {},
    invoices: [],
    purchaseOrders: [],
    deliveries: [],
    ...given,
  };
  const calls: string[] = [];
  const serve = <T>(name: string, rows: T) => {
    calls.push(name);
    return Promise.resolve(rows);
  };
  return {
    calls,
    customers: () => serve('customers', l.customers),
    cartCounts: (day) => serve(`cartCounts ${day}`, l.counts),
    units: () => serve('units', l.units),
    departments: (id) =>
      serve(
        `departments ${id}`,
        l.departments.filter((d) => d.customer_id === id),
      ),
    signals: () => serve('signals', l.signals),
    ticketsOf: (id) => serve(`ticketsOf ${id}`, l.tickets[id] ?? []),
    openInvoices: () => serve('openInvoices', l.invoices),
    activePurchaseOrders: () => serve('activePurchaseOrders', l.purchaseOrders),
    deliveries: (day) => serve(`deliveries ${day}`, l.deliveries),
  };
}

export const scope = <O>(options: O, customerIds: string[] = []): AlertScope<O> => ({
  options,
  customerIds,
  timeZone: TZ,
});

/** Every way a content breaks the limits answers are built within, as sentences (none: it fits). */
export function limitProblems(c: Content): string[] {
  const out: string[] = [];
  if (c.parts.length > CONTENT_LIMITS.parts) out.push(`${c.parts.length} parts`);
  if (measure(c.summary) > CONTENT_LIMITS.summary) out.push(`summary of ${measure(c.summary)}`);
  for (const [i, p] of c.parts.entries()) {
    if (p.kind === 'title' && measure([p.text]) > CONTENT_LIMITS.title) out.push(`title ${i} too long`);
    if (p.kind === 'text' && measure(p.text) > CONTENT_LIMITS.text) out.push(`text ${i} of ${measure(p.text)}`);
    if (p.kind === 'note')
      for (const t of p.texts) if (measure(t) > CONTENT_LIMITS.text) out.push(`note ${i} of ${measure(t)}`);
    if (p.kind === 'fields') {
      if (p.fields.length > CONTENT_LIMITS.fields) out.push(`${p.fields.length} fields`);
      for (const f of p.fields)
        if (measure(f.value) > CONTENT_LIMITS.fieldText) out.push(`field ${f.label} of ${measure(f.value)}`);
    }
    if (p.kind === 'actions' && p.actions.length > CONTENT_LIMITS.actions) out.push(`${p.actions.length} actions`);
  }
  return out;
}

/** Words as a person types them, a quoted name kept whole (as the command's tokenizer reads them). */
export function words(text: string): Token[] {
  const out: Token[] = [];
  const re = /["“”]([^"“”]*)["“”]?|(\S+)/g;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    const t = (m[1] ?? m[2] ?? '').trim().replace(/\s+/g, ' ');
    if (t !== '') out.push({ text: t, quoted: m[1] !== undefined });
  }
  return out;
}
