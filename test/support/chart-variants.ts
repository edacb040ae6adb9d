/**
 * Seeded data crowded past what a chart or a table of a chat platform holds, for the answers that must degrade:
 * ten more customers that owe money (each a different amount, in the aging buckets in turn), so that `balance`
 * charts more customers than a chart has series; twenty-four more units of Mercy General Hospital short today (each
 * a different number of pieces), so that `short` charts more units than a chart has categories; and long shortfall
 * signals of the new customers, so that `signals` lists more rows than a table holds.
 */
import { loadSandboxData, type SandboxData } from '../../sandbox/index.ts';
import { addDays } from '../../shared/dates.ts';

export const EXTRA_CUSTOMERS = 10;
export const EXTRA_UNITS = 24;
export const SIGNALS_PER_CUSTOMER = 12;

const pad = (n: number) => String(n).padStart(2, '0');
const idOf = (kind: string, n: number) => `cx${kind}${pad(n)}${'0'.repeat(19 - kind.length)}`;

export async function crowdedData(o: { today: string; timeZone: string }): Promise<SandboxData> {
  const data = structuredClone(await loadSandboxData({ ...o, seed: 'linen' }));
  const mercy = data.customers.find((c) => c.name === 'Mercy General Hospital')!;
  const seedInvoice = data.invoices.find((i) => i.status === 'sent' && i.currency === 'usd')!;
  const allAccess = data.keys.filter((k) => k.customer_ids.length === data.customers.length);
  for (let n = 1; n <= EXTRA_CUSTOMERS; n++) {
    const id = idOf('cust', n);
    data.customers.push({
      id,
      name: `Ridgeview Clinic ${pad(n)}`,
      is_group: false,
      created_at: '2026-01-05T15:00:00.000Z',
      departments: [],
    });
    for (const k of allAccess) k.customer_ids.push(id);
    // Due 0, 20, 45 or 90 days ago: current, 1–30, 31–60, 61+ in turn.
    const due = addDays(o.today, -[0, 20, 45, 90][n % 4]!);
    const cents = 10_000 * n + 123;
    data.invoices.push({
      ...seedInvoice,
      id: idOf('inv', n),
      invoice_number: `PLS-26-0990${pad(n)}`,
      customer_id: id,
      department_id: null,
      purchase_order_id: null,
      issued_at: `${addDays(due, -30)}T15:00:00.000Z`,
      sent_at: `${addDays(due, -30)}T16:00:00.000Z`,
      due_at: `${due}T18:00:00.000Z`,
      subtotal_cents: cents,
      surcharges_cents: 0,
      tax_cents: 0,
      total_cents: cents,
      balance_cents: cents,
    });
    for (let s = 1; s <= SIGNALS_PER_CUSTOMER; s++)
      data.signals.push({
        id: idOf(`sig${pad(n)}`, s),
        kind: 'shortfall_streak',
        severity: (['high', 'medium', 'low'] as const)[s % 3]!,
        status: 'open',
        customer_id: id,
        department_id: null,
        item_id: null,
        item_name: `Item ${pad(s)}`,
        summary: `Item ${pad(s)} at Ridgeview Clinic ${pad(n)} has been delivered below par on each of the last ${s + 2} delivery days, most recently short by ${s * 3} pieces against a par of ${40 + s}`,
        suggested_order_qty: null,
        window_start: addDays(o.today, -14),
        window_end: addDays(o.today, -1),
        generated_at: `${o.today}T08:00:00.000Z`,
      });
  }
  const item = data.items[0]!;
  for (let n = 1; n <= EXTRA_UNITS; n++) {
    const unitId = idOf('unit', n);
    const cartId = idOf('cart', n);
    const name = `Annex Ward ${pad(n)}`;
    data.units.push({
      id: unitId,
      customer_id: mercy.id,
      name,
      building: 'Annex',
      floor: null,
      unit_type: null,
      cost_center: null,
      cart_count: 1,
      is_active: true,
    });
    data.carts.push({
      id: cartId,
      customer_id: mercy.id,
      unit_id: unitId,
      name: `${name} Cart`,
      unit_name: name,
      kind: 'cart',
      stocking_method: 'fixed',
      count_days: ['mon', 'tue', 'wed', 'thu', 'fri'],
      is_active: true,
      par: [{ item_id: item.id, item_name: item.name, par_quantity: 60 }],
    });
    // Each unit short by a different number of pieces (2 to 48), counted today.
    data.cart_counts.push({
      id: idOf('count', n),
      customer_id: mercy.id,
      cart_id: cartId,
      cart_name: `${name} Cart`,
      unit_id: unitId,
      unit_name: name,
      date: o.today,
      status: 'counted',
      unscheduled: false,
      counted_at: `${o.today}T13:00:00.000Z`,
      verified_at: null,
      lines: [
        {
          item_id: item.id,
          item_name: item.name,
          par: 60,
          on_hand: 10,
          required: 50,
          delivered: 50 - 2 * n,
          extra: 0,
          returned: 0,
        },
      ],
    });
  }
  return data;
}
