/**
 * The LINEN functions of both spreadsheets, declared once: name, parameters with their descriptions, what each
 * returns, an example. Sheets calls them `LINEN_FILLRATE(...)`, Excel `LINEN.FILLRATE(...)` (the `LINEN`
 * namespace and the name after `LINEN_`). The builds generate from this table the Apps Script `@customfunction`
 * stubs and Help page, and the Excel functions' JSDoc from which `custom-functions-metadata` writes
 * `functions.json`; the runtimes use it for argument names. Pure data: no imports, so a build can read it
 * without loading the client.
 */

export type ParamKind = 'customer' | 'date' | 'text' | 'ticket';

export interface ParamSpec {
  name: string;
  kind: ParamKind;
  /** One line for the JSDoc `@param` and the Help page. */
  doc: string;
  optional?: boolean;
}

export interface FunctionSpec {
  /** The Sheets name, `LINEN_` and the function's own name (Excel's name after `LINEN.`). */
  name: string;
  /** First line of the JSDoc: what the cell shows. */
  summary: string;
  params: ParamSpec[];
  returns: string;
  /** Returns a table (rows that spill) at times, though not always: a balance in several currencies, tickets of a range. */
  sometimesTable?: true;
  /** A Sheets formula that works against the sandbox data. */
  example: string;
}

/** Whether a function may answer with a table (rows that spill into the cells below and to the right). */
export const mayReturnTable = (f: FunctionSpec): boolean => f.sometimesTable === true || /^A table/.test(f.returns);

const customer = (optional = false, extra = ''): ParamSpec => ({
  name: 'customer',
  kind: 'customer',
  doc: optional ? `Customer id or name; blank: all${extra}.` : 'Customer id or name.',
  optional,
});
const from = (optional = false, what = 'first day'): ParamSpec => ({
  name: 'from',
  kind: 'date',
  doc: `${what[0]!.toUpperCase()}${what.slice(1)} (date or YYYY-MM-DD)${optional ? '; blank: open' : ''}.`,
  optional,
});
const to = (optional = false): ParamSpec => ({
  name: 'to',
  kind: 'date',
  doc: `Last day (date or YYYY-MM-DD)${optional ? '; blank: open' : ''}.`,
  optional,
});
const text = (name: string, doc: string): ParamSpec => ({ name, kind: 'text', doc, optional: true });
const department = text('department', 'Department name or id; blank: all.');
const item = text('item', 'Item name or id; blank: all.');

export const FUNCTIONS: readonly FunctionSpec[] = [
  {
    name: 'LINEN_FILLRATE',
    summary: 'Fill rate: pieces delivered / daily par (or par met, with measure "par_met").',
    params: [
      customer(),
      from(),
      to(),
      department,
      item,
      text('measure', '"fill" (default): delivered / par; "par_met": over-fill earns nothing.'),
    ],
    returns: 'A fraction (0.93 is 93 %); empty without a pieces par.',
    example: '=LINEN_FILLRATE("Mercy General Hospital", "2026-10-01", "2026-10-31", "ICU")',
  },
  {
    name: 'LINEN_PARMET',
    summary: 'Par met: pieces that counted toward par / daily par; over-fill earns nothing.',
    params: [customer(), from(), to(), department, item],
    returns: 'A fraction (0.88 is 88 %); empty without a pieces par.',
    example: '=LINEN_PARMET("Mercy General Hospital", "2026-10-01", "2026-10-31", "ICU")',
  },
  {
    name: 'LINEN_SHORT',
    summary: 'Short today: what is missing now, from the latest cart counts.',
    params: [customer(true), text('department', 'Department or unit name or id (give the customer); blank: all.')],
    returns: 'A table, worst first: Customer, Unit, Item, Required, Delivered, Missing, Carts, Counted, Count status.',
    example: '=LINEN_SHORT("Mercy General Hospital", "ICU")',
  },
  {
    name: 'LINEN_REWASH_RATE',
    summary: 'Rewash pounds as a share of soil pounds.',
    params: [
      customer(),
      {
        name: 'from',
        kind: 'date',
        doc: 'First day (date or YYYY-MM-DD); from and to blank: the last 30 whole days.',
        optional: true,
      },
      { name: 'to', kind: 'date', doc: 'Last day (date or YYYY-MM-DD).', optional: true },
      text('fault', 'blank: all rewash; "soil" or "processing_error" (the laundry\'s, the basis of a credit).'),
    ],
    returns: 'A fraction (0.012 is 1.2 %); a split the organization hides says so.',
    example: '=LINEN_REWASH_RATE("Mercy General Hospital", "2026-10-01", "2026-10-31", "processing_error")',
  },
  {
    name: 'LINEN_MANIFEST',
    summary: 'Proof of delivery of a manifest, one row per bin.',
    params: [
      { name: 'manifest_number', kind: 'text', doc: 'The manifest number, e.g. "MAN-26-027570".' },
      customer(true),
    ],
    returns:
      'A table: Manifest, Customer, Department, Status, Delivered, Signed by, Signer title, Signed at, Side, Content, Bin ticket, Gross (lb), Tare (lb), Net (lb), Items, Held rewash (lb), Held status, Soil rewash (lb), Error rewash (lb), Rewash of, Rewash children; every manifest the number matches.',
    example: '=LINEN_MANIFEST("MAN-26-027570")',
  },
  {
    name: 'LINEN_PO_STATUS',
    summary: 'Purchase-order budgets: left, spent and days to expiry.',
    params: [customer(true), text('status', 'pending, active, closed or cancelled; blank: active.')],
    returns:
      'A table, least left first: PO number, Status, Customer, Total, Spent, Remaining, Remaining share, Spent share, Expires, Days to expiry, Currency.',
    example: '=LINEN_PO_STATUS()',
  },
  {
    name: 'LINEN_ORDER',
    summary: 'A direct-sales order with its lines and charges.',
    params: [{ name: 'order_number', kind: 'text', doc: 'The order number, e.g. "DS-26-01622".' }],
    returns:
      'A table: Order, Stage, Customer, Line, SKU, Description, Size, Color, Quantity, Unit price ($), Amount ($); charges, subtotal and total rows.',
    example: '=LINEN_ORDER("DS-26-01622")',
  },
  {
    name: 'LINEN_DELIVERIES',
    summary: 'Daily deliveries per day, department and item.',
    params: [customer(), from(), to(), department, item],
    returns: 'A table: Date, Customer, Department, Item, Delivered, Daily par, Fill rate.',
    example: '=LINEN_DELIVERIES("Mercy General Hospital", "2026-10-01", "2026-10-07")',
  },
  {
    name: 'LINEN_BALANCE',
    summary: 'Outstanding balance in dollars.',
    params: [customer(true)],
    returns: "Dollars (a Currency/Balance table when currencies differ); a group's is its locations' total.",
    sometimesTable: true,
    example: '=LINEN_BALANCE("Mercy General Hospital")',
  },
  {
    name: 'LINEN_AGING',
    summary: 'Receivables aging per customer.',
    params: [customer(true)],
    returns:
      "A table: Customer, Currency, Current, 1-30 days, 31-60 days, 61+ days, Balance (dollars), with a total row per currency when several customers are shown (the sum of the lines above it); a group with no balance of its own also shows its locations' rows, each labelled as theirs.",
    example: '=LINEN_AGING()',
  },
  {
    name: 'LINEN_TICKET',
    summary: 'Status of a quality ticket.',
    params: [
      { name: 'ticket_number', kind: 'ticket', doc: 'The ticket number, e.g. "TKT-26-00417" (or a range of them).' },
    ],
    returns: 'Submitted, Acknowledged, In progress or Resolved (a column of them for a range).',
    sometimesTable: true,
    example: '=LINEN_TICKET("TKT-26-00417")',
  },
  {
    name: 'LINEN_SIGNALS',
    summary: 'Inventory signals (nightly advisories).',
    params: [
      text(
        'kind',
        'Signal kind, e.g. "shortfall_streak", or "shortfall" (streaks and circulation breaches); blank: all.',
      ),
      text('status', 'open, acknowledged, dismissed or resolved; blank for open and acknowledged.'),
      customer(true),
    ],
    returns:
      'A table: Severity, Kind, Status, Customer, Department, Item, Summary, Suggested order, Window start, Window end, Generated.',
    example: '=LINEN_SIGNALS("shortfall_streak")',
  },
  {
    name: 'LINEN_CUSTOMERS',
    summary: 'The customers the key sees.',
    params: [],
    returns: 'A table: Id, Name, Group, Departments, Created.',
    example: '=LINEN_CUSTOMERS()',
  },
  {
    name: 'LINEN_DEPARTMENTS',
    summary: 'Departments of a customer.',
    params: [customer()],
    returns: 'A table: Id, Customer, Name, Cost center.',
    example: '=LINEN_DEPARTMENTS("Mercy General Hospital")',
  },
  {
    name: 'LINEN_ITEMS',
    summary: "Linen items of the key's customers.",
    params: [customer(true)],
    returns: 'A table: Id, SKU, Name, Category, Unit of measure, Weight (lb).',
    example: '=LINEN_ITEMS()',
  },
  {
    name: 'LINEN_MANIFESTS',
    summary: 'Manifests (window: delivery day).',
    params: [
      customer(true),
      from(true, 'first delivery day'),
      to(true),
      department,
      text('type', 'normal, rewash or new_linen; blank: all.'),
      text('status', 'collected, received, cleaned, staged or delivered; blank: all.'),
    ],
    returns:
      'A table: Manifest, Type, Status, Customer, Department, Collected, Delivered, Soil (lb), Clean (lb), Clean pieces, Variance, Within tolerance, Amount ($).',
    example: '=LINEN_MANIFESTS("Mercy General Hospital", "2026-10-01", "2026-10-07")',
  },
  {
    name: 'LINEN_INVENTORY',
    summary: 'Inventory totals per item.',
    params: [customer(true)],
    returns: 'A table: Item, Total owned, At customer, At facility, In transit, Retired.',
    example: '=LINEN_INVENTORY("Harborview Hotel")',
  },
  {
    name: 'LINEN_PAR',
    summary: 'Par levels per department and item.',
    params: [customer(true), department],
    returns: 'A table: Customer, Department, Item, Par, Par unit, Reorder threshold.',
    example: '=LINEN_PAR("Mercy General Hospital")',
  },
  {
    name: 'LINEN_UNITS',
    summary: 'Units (wards, floors, rooms).',
    params: [customer(true)],
    returns: 'A table: Id, Customer, Name, Building, Floor, Unit type, Cost center, Carts, Active.',
    example: '=LINEN_UNITS("Mercy General Hospital")',
  },
  {
    name: 'LINEN_CARTS',
    summary: 'Carts, closets and linen rooms.',
    params: [customer(true), text('unit', 'Unit name or id; blank: all.')],
    returns: 'A table: Id, Customer, Unit, Name, Kind, Stocking, Count days, Active, Par lines.',
    example: '=LINEN_CARTS("Mercy General Hospital")',
  },
  {
    name: 'LINEN_COUNTS',
    summary: 'Cart counts, one row per item line.',
    params: [
      customer(true),
      from(true, 'first count day (blank: the last 7 days)'),
      to(true),
      text('unit', 'Unit name or id; blank: all.'),
      text('cart', 'Cart name or id; blank: all.'),
      text('status', 'pending, in_progress, counted, verified or assumed; blank: all.'),
    ],
    returns:
      'A table: Date, Customer, Unit, Cart, Status, Unscheduled, Counted, Verified, Item, Par, On hand, Required, Delivered, Extra, Returned.',
    example: '=LINEN_COUNTS("Mercy General Hospital", "2026-10-01", "2026-10-07")',
  },
  {
    name: 'LINEN_INVENTORY_STATUS',
    summary: 'Pieces per item and status.',
    params: [customer(true), item],
    returns: 'A table: Item, Status, Quantity.',
    example: '=LINEN_INVENTORY_STATUS("Harborview Hotel")',
  },
  {
    name: 'LINEN_NEW_LINEN',
    summary: 'New-linen injections (window: cleaned day).',
    params: [customer(true), from(true), to(true)],
    returns: 'A table: Date, Manifest, Customer, Department, Item, Pieces, Soil (lb), Injected (lb).',
    example: '=LINEN_NEW_LINEN("Mercy General Hospital", "2026-09-01", "2026-10-31")',
  },
  {
    name: 'LINEN_REWASH',
    summary: 'Rewash batches (window: discovered day).',
    params: [customer(true), from(true), to(true), text('status', 'pending, consumed or voided; blank: all.')],
    returns:
      'A table: Discovered, Status, Customer, Department, Parent manifest, Held (lb), Soil rewash (lb), Error rewash (lb), Consumed by, Consumed on.',
    example: '=LINEN_REWASH("Mercy General Hospital", "2026-10-01", "2026-10-31")',
  },
  {
    name: 'LINEN_INVOICES',
    summary: 'Invoices (window: issue day).',
    params: [customer(true), from(true), to(true), text('status', 'sent, partially_paid or paid; blank: all.')],
    returns:
      'A table: Invoice, Status, Customer, Department, Issued, Due, Days overdue, Paid, Subtotal, Surcharges, Tax, Total, Balance, Currency (amounts in dollars).',
    example: '=LINEN_INVOICES("Mercy General Hospital", , , "sent")',
  },
  {
    name: 'LINEN_PAYMENTS',
    summary: 'Payments (window: received day).',
    params: [customer(true), from(true), to(true)],
    returns: 'A table: Received, Customer, Kind, Status, Amount, Currency, Returned, Invoices.',
    example: '=LINEN_PAYMENTS("Mercy General Hospital", "2026-09-01", "2026-10-31")',
  },
  {
    name: 'LINEN_PURCHASE_ORDERS',
    summary: 'Purchase orders.',
    params: [customer(true), from(true), to(true), text('status', 'pending, active, closed or cancelled; blank: all.')],
    returns:
      'A table: PO number, Status, Customer, Started, Expires, Total, Spent, Remaining, Currency (amounts in dollars).',
    example: '=LINEN_PURCHASE_ORDERS()',
  },
  {
    name: 'LINEN_ORDERS',
    summary: 'Direct-sales orders (window: placed day).',
    params: [
      customer(true),
      from(true),
      to(true),
      text('stage', 'draft, submitted, in_production, shipped, delivered or cancelled; blank: all.'),
    ],
    returns:
      'A table: Order, Stage, Customer, Placed, Requested, Confirmed, Delivered, Orderer, Wearer, Wearer department, Lines, Subtotal ($), Total ($), PO.',
    example: '=LINEN_ORDERS("Harborview Hotel")',
  },
  {
    name: 'LINEN_TICKETS',
    summary: 'Quality tickets (window: creation day).',
    params: [
      customer(true),
      from(true),
      to(true),
      text('status', 'new, acknowledged, in_progress, resolved or verified; blank: all.'),
    ],
    returns:
      'A table: Ticket, Customer, Status, Kind, Subject, Created, Acknowledged, Resolved, Last correspondence, Resolution.',
    example: '=LINEN_TICKETS("Mercy General Hospital")',
  },
  {
    name: 'LINEN_RATINGS',
    summary: 'Delivery ratings (window: rating day).',
    params: [customer(true), from(true), to(true)],
    returns: 'A table: Rated, Customer, Manifest, On time, Quality (1-5), Note.',
    example: '=LINEN_RATINGS("Mercy General Hospital")',
  },
];
