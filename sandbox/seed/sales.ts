/**
 * Direct-sales orders: garments the provider sells outright (hotel uniforms and robes, hospital scrubs and lab
 * coats), with per-line decoration charges and order-level shipping.
 *
 * An order is started in every cycle of a few days from the fixed origin and drawn from that cycle's stream: its
 * lines, dates and fate (placed or left a draft, cancelled or delivered) never change; its stage is where that
 * plan has got to at the generation instant.
 */
import type { DirectSalesOrder, LocalDate, OrderCharge, OrderLine, OrderStage } from '../model.ts';
import { cycleOf, cycleStart } from './calendar.ts';
import { numberByDay } from './numbers.ts';
import { type CustomerRt, cmp, customerByCode, type Org } from './org.ts';
import type { Rng } from './prng.ts';
import { addDays, type Clock, isoOf } from './time.ts';

interface Product {
  sku: string;
  description: string;
  sizes: string[] | null;
  colors: string[] | null;
  priceCents: number;
  decoration: 'embroidery' | 'emblem' | null;
}

const HOTEL_PRODUCTS: Product[] = [
  {
    sku: 'UNI-HK-TUNIC',
    description: 'Housekeeping tunic, snap front',
    sizes: ['S', 'M', 'L', 'XL'],
    colors: ['Sage', 'Charcoal'],
    priceCents: 3450,
    decoration: 'emblem',
  },
  {
    sku: 'UNI-FB-VEST',
    description: 'Banquet server vest',
    sizes: ['S', 'M', 'L', 'XL', '2XL'],
    colors: ['Black'],
    priceCents: 2875,
    decoration: 'emblem',
  },
  {
    sku: 'UNI-FB-APRON',
    description: 'Bistro apron, 4-pocket',
    sizes: null,
    colors: ['Black', 'Slate'],
    priceCents: 1425,
    decoration: 'embroidery',
  },
  {
    sku: 'SPA-ROBE-WAF',
    description: 'Waffle spa robe',
    sizes: ['S/M', 'L/XL'],
    colors: ['White'],
    priceCents: 4800,
    decoration: 'embroidery',
  },
];
const HOSPITAL_PRODUCTS: Product[] = [
  {
    sku: 'SCB-TOP-UNI',
    description: 'Scrub top, unisex V-neck',
    sizes: ['XS', 'S', 'M', 'L', 'XL', '2XL', '3XL'],
    colors: ['Ceil Blue', 'Navy', 'Wine'],
    priceCents: 1650,
    decoration: 'embroidery',
  },
  {
    sku: 'SCB-PNT-UNI',
    description: 'Scrub pants, drawstring',
    sizes: ['XS', 'S', 'M', 'L', 'XL', '2XL', '3XL'],
    colors: ['Ceil Blue', 'Navy', 'Wine'],
    priceCents: 1725,
    decoration: null,
  },
  {
    sku: 'LAB-COAT-31',
    description: 'Lab coat, 31 in.',
    sizes: ['S', 'M', 'L', 'XL'],
    colors: ['White'],
    priceCents: 3995,
    decoration: 'embroidery',
  },
  {
    sku: 'ISO-GOWN-RU',
    description: 'Reusable isolation gown',
    sizes: null,
    colors: ['Yellow'],
    priceCents: 2150,
    decoration: null,
  },
];

const FIRST = ['Maria', 'James', 'Aisha', 'Daniel', 'Grace', 'Hiro', 'Lena', 'Samuel', 'Nadia', 'Owen'];
const LAST = ['Gonzalez', 'Patel', 'Nguyen', 'Okafor', 'Schmidt', 'Rossi', 'Bennett', 'Yamada', 'Haddad', 'Murphy'];
const ORDERERS: Record<string, string[]> = {
  HH: ['Sofia Alvarez', 'Ben Carter'],
  MGH: ['Karen Liu', 'Dana Whitfield'],
  SLMC: ['Angela Moreau', 'Paul Jensen'],
  MWSC: ['Rachel Kim'],
};
const LOCATIONS: Record<string, string[]> = {
  HH: ['Harborview Hotel, receiving dock', 'Harborview Hotel, Spa level 2'],
  MGH: ['Mercy General Hospital, Loading Dock B', 'Mercy General Hospital, Surgical Services desk'],
  SLMC: ["St. Luke's Medical Center, Tower A mailroom"],
  MWSC: ['Mercy West Surgery Center, front desk'],
};

/** One order is started in each cycle of this many days, on a day drawn in the cycle. */
const ORDER_CYCLE = 8;
/** The provider's order numbers per day, across all its customers. */
const ORDERS_PER_DAY = 5.35;

function charge(rng: Rng, kind: string, description: string, quantity: number, mills: number): OrderCharge {
  return {
    id: rng.id(),
    kind,
    description,
    quantity,
    unit_price_mills: mills,
    amount_cents: Math.round((quantity * mills) / 10),
  };
}

export function buildOrders(root: Rng, clock: Clock, org: Org, firstDay: LocalDate): DirectSalesOrder[] {
  const buyers: { c: CustomerRt; code: string; weight: number }[] = [
    { c: customerByCode(org, 'HH'), code: 'HH', weight: 8 },
    { c: customerByCode(org, 'MGH'), code: 'MGH', weight: 6 },
    { c: customerByCode(org, 'SLMC'), code: 'SLMC', weight: 4 },
    { c: customerByCode(org, 'MWSC'), code: 'MWSC', weight: 2 },
  ];
  const pool = buyers.flatMap((b) => Array.from({ length: b.weight }, () => b));
  const drafts: { order: DirectSalesOrder; createdMs: number }[] = [];
  const orders: { order: DirectSalesOrder; createdMs: number }[] = [];
  const now = clock.nowMs;

  for (let cycle = cycleOf(ORDER_CYCLE, firstDay); cycle <= cycleOf(ORDER_CYCLE, clock.today); cycle++) {
    const rng = root.fork(`order#${cycle}`);
    const startedDay = addDays(cycleStart(ORDER_CYCLE, cycle), rng.int(0, ORDER_CYCLE - 1));
    const buyer = rng.pick(pool);
    const hotel = buyer.code === 'HH';
    const individual = !hotel && rng.chance(0.6);
    const products = hotel ? HOTEL_PRODUCTS : HOSPITAL_PRODUCTS;
    const lines: OrderLine[] = rng.sample(products, rng.int(1, individual ? 2 : 4)).map((p, i) => {
      const quantity = individual ? rng.int(2, 5) : rng.int(2, 12) * 6;
      const charges: OrderCharge[] = [];
      if (p.decoration === 'embroidery' && rng.chance(0.7))
        charges.push(
          charge(
            rng,
            'embroidery',
            individual ? 'Name and credentials embroidery' : 'Logo embroidery, left chest',
            quantity,
            rng.pick([4250, 3875, 5125]),
          ),
        );
      if (p.decoration === 'emblem') charges.push(charge(rng, 'emblem', 'Harborview crest emblem', quantity, 2375));
      if (p.sku.startsWith('SCB-PNT') && rng.chance(0.4))
        charges.push(charge(rng, 'hemming', 'Inseam hemming', quantity, 6500));
      const base = quantity * p.priceCents;
      return {
        id: rng.id(),
        line_number: i + 1,
        sku: p.sku,
        description: p.description,
        size: p.sizes ? rng.pick(p.sizes) : null,
        color: p.colors ? rng.pick(p.colors) : null,
        quantity,
        unit_price_cents: p.priceCents,
        charges,
        subtotal_cents: base + charges.reduce((t, ch) => t + ch.amount_cents, 0),
      };
    });
    const orderCharges = [charge(rng, 'shipping', 'Ground freight', 1, rng.pick([12750, 18500, 24900]))];
    const rush = rng.chance(0.2);
    const rushCharge = charge(rng, 'rush', 'Rush production', 1, 35000);
    const subtotal = lines.reduce((t, l) => t + l.subtotal_cents, 0);

    // The plan: started as a draft, placed a few days later (or left a draft), approved, made, shipped and
    // delivered around the confirmed date, unless cancelled on the way.
    const createdMs = clock.ms(startedDay, 480 + rng.int(0, 36000) / 60);
    const abandoned = rng.chance(0.05);
    const placedMs = createdMs + rng.int(2, 144) * HOUR_MS;
    const placedDay = clock.localDay(placedMs);
    const requestedDay = addDays(placedDay, rng.int(21, 42));
    const confirmedDay = addDays(requestedDay, rng.int(-2, 5));
    const productionMs = placedMs + rng.int(48, 336) * HOUR_MS;
    const shippedMs = clock.ms(addDays(confirmedDay, -rng.int(4, 9)), 600 + rng.int(0, 300));
    const deliveredMs = clock.ms(addDays(confirmedDay, rng.int(-1, 1)), 600 + rng.int(0, 300));
    const cancelled = rng.chance(0.1);
    const cancelledMs = placedMs + rng.int(24, 240) * HOUR_MS;
    const noRequestedDate = rng.chance(0.5);
    const first = rng.pick(FIRST);
    const last = rng.pick(LAST);
    const orderer = rng.chance(0.9) ? rng.pick(ORDERERS[buyer.code] ?? ['Front Desk']) : null;
    const wearerDepartment = individual
      ? rng.pick(['Surgery', 'Emergency', 'ICU', 'Sterile Processing'])
      : hotel
        ? rng.pick(['Housekeeping', 'Banquets', 'Spa', null])
        : null;
    const location = rng.chance(0.85) ? rng.pick(LOCATIONS[buyer.code] ?? ['Receiving']) : null;
    const poNumber = rng.chance(0.5) ? `PO-${buyer.code}-${rng.digits(5)}` : null;
    const id = rng.id();
    if (startedDay < firstDay || createdMs > now) continue;

    let stage: OrderStage = 'submitted';
    if (abandoned || placedMs > now) stage = 'draft';
    else if (cancelled && cancelledMs <= now && cancelledMs < shippedMs) stage = 'cancelled';
    else if (deliveredMs <= now) stage = 'delivered';
    else if (shippedMs <= now) stage = 'shipped';
    else if (productionMs <= now) stage = 'in_production';
    const committed = stage === 'in_production' || stage === 'shipped' || stage === 'delivered';
    if (rush && stage !== 'draft') orderCharges.push(rushCharge);

    const order: DirectSalesOrder = {
      id,
      order_number: '',
      stage,
      customer_id: buyer.c.id,
      placed_at: stage === 'draft' ? null : isoOf(placedMs),
      requested_delivery_date: stage === 'draft' && noRequestedDate ? null : clock.iso(requestedDay, 0),
      confirmed_delivery_date: committed ? clock.iso(confirmedDay, 0) : null,
      delivered_at: stage === 'delivered' ? isoOf(deliveredMs) : null,
      subtotal_cents: subtotal,
      total_cents: subtotal + orderCharges.reduce((t, ch) => t + ch.amount_cents, 0),
      currency: 'usd',
      orderer_name: orderer,
      wearer_name: individual ? `${first} ${last}`.trim() : null,
      wearer_department: wearerDepartment,
      delivery_location: location,
      po_number: poNumber,
      line_count: lines.length,
      lines,
      charges: orderCharges,
    };
    (stage === 'draft' ? drafts : orders).push({ order, createdMs });
  }

  // Order numbers follow the day each order was started.
  numberByDay([...orders, ...drafts], {
    prefix: 'DS',
    digits: 5,
    perDay: ORDERS_PER_DAY,
    day: ({ createdMs }) => clock.localDay(createdMs),
    order: (a, b) => a.createdMs - b.createdMs || cmp(a.order.id, b.order.id),
    assign: ({ order }, number) => (order.order_number = number),
  });
  const dated = orders.map((o) => o.order).sort((a, b) => cmp(b.placed_at ?? '', a.placed_at ?? '') || cmp(a.id, b.id));
  const undated = drafts.sort((a, b) => b.createdMs - a.createdMs || cmp(a.order.id, b.order.id)).map((o) => o.order);
  return [...dated, ...undated];
}

const HOUR_MS = 3_600_000;
