/**
 * Direct-sales orders: garments the provider sells outright (hotel uniforms and robes, hospital scrubs and lab
 * coats), with per-line decoration charges and order-level shipping.
 */
import type { DirectSalesOrder, OrderCharge, OrderLine, OrderStage } from '../model.ts';
import { numberByYear } from './numbers.ts';
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

/** Stages in the order they are drawn, oldest placements first. */
const STAGES: { stage: OrderStage; age: [number, number] }[] = [
  ...Array.from({ length: 6 }, () => ({ stage: 'delivered' as const, age: [30, 170] as [number, number] })),
  { stage: 'cancelled', age: [20, 120] },
  { stage: 'cancelled', age: [10, 60] },
  ...Array.from({ length: 3 }, () => ({ stage: 'shipped' as const, age: [8, 25] as [number, number] })),
  ...Array.from({ length: 4 }, () => ({ stage: 'in_production' as const, age: [4, 20] as [number, number] })),
  ...Array.from({ length: 3 }, () => ({ stage: 'submitted' as const, age: [0, 5] as [number, number] })),
  ...Array.from({ length: 3 }, () => ({ stage: 'draft' as const, age: [0, 9] as [number, number] })),
];

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

export function buildOrders(rng: Rng, clock: Clock, org: Org): DirectSalesOrder[] {
  const buyers: { c: CustomerRt; code: string; weight: number }[] = [
    { c: customerByCode(org, 'HH'), code: 'HH', weight: 8 },
    { c: customerByCode(org, 'MGH'), code: 'MGH', weight: 6 },
    { c: customerByCode(org, 'SLMC'), code: 'SLMC', weight: 4 },
    { c: customerByCode(org, 'MWSC'), code: 'MWSC', weight: 2 },
  ];
  const pool = buyers.flatMap((b) => Array.from({ length: b.weight }, () => b));
  const drafts: { order: DirectSalesOrder; createdMs: number }[] = [];
  const orders: { order: DirectSalesOrder; createdMs: number }[] = [];

  for (const { stage, age } of STAGES) {
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
    if (stage !== 'draft' && rng.chance(0.2)) orderCharges.push(charge(rng, 'rush', 'Rush production', 1, 35000));
    const subtotal = lines.reduce((t, l) => t + l.subtotal_cents, 0);

    const placedDay = addDays(clock.today, -rng.int(age[0], age[1]));
    const placedMs = Math.min(
      clock.ms(placedDay, 480 + rng.int(0, 36000) / 60),
      clock.nowMs - rng.int(20, 180) * 60_000,
    );
    const requestedDay = addDays(placedDay, rng.int(14, 28));
    const committed = stage === 'in_production' || stage === 'shipped' || stage === 'delivered';
    const confirmedDay = addDays(requestedDay, rng.int(-2, 5));
    let deliveredMs: number | null = null;
    if (stage === 'delivered')
      deliveredMs = Math.min(
        clock.ms(addDays(confirmedDay, rng.int(-1, 1)), 600 + rng.int(0, 300)),
        clock.nowMs - HOUR_MS,
      );
    const first = rng.pick(FIRST);
    const last = rng.pick(LAST);

    const order: DirectSalesOrder = {
      id: rng.id(),
      order_number: '',
      stage,
      customer_id: buyer.c.id,
      placed_at: stage === 'draft' ? null : isoOf(placedMs),
      requested_delivery_date: stage === 'draft' && rng.chance(0.5) ? null : clock.iso(requestedDay, 0),
      confirmed_delivery_date: committed ? clock.iso(confirmedDay, 0) : null,
      delivered_at: deliveredMs === null ? null : isoOf(deliveredMs),
      subtotal_cents: subtotal,
      total_cents: subtotal + orderCharges.reduce((t, ch) => t + ch.amount_cents, 0),
      currency: 'usd',
      orderer_name: rng.chance(0.9) ? rng.pick(ORDERERS[buyer.code] ?? ['Front Desk']) : null,
      wearer_name: individual ? `${first} ${last}`.trim() : null,
      wearer_department: individual
        ? rng.pick(['Surgery', 'Emergency', 'ICU', 'Sterile Processing'])
        : hotel
          ? rng.pick(['Housekeeping', 'Banquets', 'Spa', null])
          : null,
      delivery_location: rng.chance(0.85) ? rng.pick(LOCATIONS[buyer.code] ?? ['Receiving']) : null,
      po_number: rng.chance(0.5) ? `PO-${buyer.code}-${rng.digits(5)}` : null,
      line_count: lines.length,
      lines,
      charges: orderCharges,
    };
    (stage === 'draft' ? drafts : orders).push({ order, createdMs: placedMs });
  }

  // Order numbers follow creation, one sequence per year.
  const all = [...orders, ...drafts].sort((a, b) => a.createdMs - b.createdMs || cmp(a.order.id, b.order.id));
  numberByYear(all, {
    prefix: 'DS',
    digits: 5,
    day: ({ createdMs }) => clock.localDay(createdMs),
    start: (_year, earliest) => (earliest ? rng.int(1200, 1900) : 1),
    assign: ({ order }, number) => (order.order_number = number),
  });
  const dated = orders.map((o) => o.order).sort((a, b) => cmp(b.placed_at ?? '', a.placed_at ?? '') || cmp(a.id, b.id));
  const undated = drafts.sort((a, b) => b.createdMs - a.createdMs || cmp(a.order.id, b.order.id)).map((o) => o.order);
  return [...dated, ...undated];
}

const HOUR_MS = 3_600_000;
