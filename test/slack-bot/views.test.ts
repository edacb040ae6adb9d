/**
 * The pure parts of the bot: the grammar, mrkdwn escaping, the Block Kit limiter, and every view run over
 * hostile and oversized data through the Block Kit validator (no network).
 */
import { describe, expect, it } from 'vitest';
import { formatCommand, parseCommand } from '../../chat/answers/grammar.ts';
import { sparkline } from '../../chat/content/text-charts.ts';
import {
  ageInvoices,
  computeAr,
  computeFillRate,
  computePoStatus,
  computeRewashRate,
  computeShort,
} from '../../shared/reports/index.ts';
import type { BalanceRow, Invoice } from '../../shared/schemas/accounting.ts';
import type { Customer } from '../../shared/schemas/customers.ts';
import type { InventorySignal } from '../../shared/schemas/inventory.ts';
import type { OrderDetail } from '../../shared/schemas/orders.ts';
import type { DailyDeliveryRow, ManifestDetail } from '../../shared/schemas/processing.ts';
import type { QualityTicket } from '../../shared/schemas/quality.ts';
import { fields, type Message, section } from '../../slack-bot/blocks/kit.ts';
import { fitMessage, LIMITS, truncate } from '../../slack-bot/blocks/limits.ts';
import { esc } from '../../slack-bot/blocks/mrkdwn.ts';
import { renderMessage } from '../../slack-bot/console-render.ts';
import { validateMessage } from '../support/slack-blockkit.ts';
import {
  balanceMessage,
  chooseCustomerMessage,
  errorMessage,
  fillRateMessage,
  helpMessage,
  invoicesMessage,
  manifestMessage,
  orderMessage,
  poMessage,
  rewashMessage,
  shareFooter,
  shortMessage,
  signalsMessage,
  ticketMessage,
  ticketsMessage,
  unknownMessage,
  usageMessage,
} from '../support/slack-views.ts';

const EVIL = 'Ops <!channel> & <@U999|boss> @here <http://evil.example|click me> @everyone';
const TZ = 'America/Chicago';

describe('grammar', () => {
  it('parses every subcommand', () => {
    expect(parseCommand('')).toEqual({ kind: 'help' });
    expect(parseCommand('  HELP ')).toEqual({ kind: 'help' });
    expect(parseCommand('balance')).toEqual({ kind: 'balance', customer: undefined });
    expect(parseCommand('balance  Mercy   General')).toEqual({ kind: 'balance', customer: 'Mercy General' });
    expect(parseCommand('signals')).toEqual({ kind: 'signals', customer: undefined });
    expect(parseCommand('signals par_drift Harborview')).toEqual({
      kind: 'signals',
      signalKind: 'par_drift',
      customer: 'Harborview',
    });
    expect(parseCommand('signals circulation_breach')).toEqual({
      kind: 'signals',
      signalKind: 'circulation_breach',
      customer: undefined,
    });
    expect(parseCommand('signals Mercy Health')).toEqual({ kind: 'signals', customer: 'Mercy Health' });
    expect(parseCommand('ticket tkt-26-417')).toEqual({ kind: 'ticket', number: 'TKT-26-00417' });
    expect(parseCommand('ticket').kind).toBe('usage');
    expect(parseCommand('ticket 12345').kind).toBe('usage');
    expect(parseCommand('tickets')).toEqual({ kind: 'tickets', status: 'open' });
    expect(parseCommand('tickets in progress')).toEqual({ kind: 'tickets', status: 'in_progress' });
    expect(parseCommand('tickets nope')).toEqual({ kind: 'tickets', status: 'open', customer: 'nope' });
    expect(parseCommand('tickets Mercy General Hospital in progress')).toEqual({
      kind: 'tickets',
      status: 'in_progress',
      customer: 'Mercy General Hospital',
    });
    expect(parseCommand('signals shortfall')).toEqual({
      kind: 'signals',
      signalKind: 'shortfall',
      customer: undefined,
    });
    expect(parseCommand('frob x')).toEqual({ kind: 'unknown', typed: 'frob' });
  });

  it('parses fillrate windows and departments', () => {
    expect(parseCommand('fillrate Mercy General Hospital')).toEqual({
      kind: 'fillrate',
      customer: 'Mercy General Hospital',
      window: { days: 7 },
      department: undefined,
    });
    expect(parseCommand('fillrate Mercy General Hospital 14 Med-Surg 4 West')).toEqual({
      kind: 'fillrate',
      customer: 'Mercy General Hospital',
      window: { days: 14 },
      department: 'Med-Surg 4 West',
    });
    expect(parseCommand('fillrate “Mercy General Hospital” ICU')).toEqual({
      kind: 'fillrate',
      customer: 'Mercy General Hospital',
      window: { days: 7 },
      department: 'ICU',
    });
    expect(parseCommand('fillrate Harborview 2026-11-01 2026-11-15 Spa')).toEqual({
      kind: 'fillrate',
      customer: 'Harborview',
      window: { from: '2026-11-01', to: '2026-11-15' },
      department: 'Spa',
    });
    for (const bad of [
      'fillrate',
      'fillrate 7',
      'fillrate X 0',
      'fillrate X 999',
      'fillrate X 2026-02-30 2026-03-01',
      'fillrate X 2026-03-01',
      'fillrate X 2026-03-02 2026-03-01',
    ]) {
      expect(parseCommand(bad).kind, bad).toBe('usage');
    }
  });

  it('parses the new subcommands: short, rewash, manifest, order, po, invoices', () => {
    expect(parseCommand('short')).toEqual({ kind: 'short' });
    expect(parseCommand('short Mercy General Hospital ICU')).toEqual({
      kind: 'short',
      customer: 'Mercy General Hospital ICU',
    });
    expect(parseCommand('short "Mercy General Hospital" ICU North')).toEqual({
      kind: 'short',
      customer: 'Mercy General Hospital',
      place: 'ICU North',
    });
    expect(parseCommand('rewash Harborview Hotel')).toEqual({
      kind: 'rewash',
      customer: 'Harborview Hotel',
      window: { days: 30 },
    });
    expect(parseCommand('rewash Harborview 2026-10-01 2026-10-31')).toEqual({
      kind: 'rewash',
      customer: 'Harborview',
      window: { from: '2026-10-01', to: '2026-10-31' },
    });
    expect(parseCommand('rewash Harborview 30 Spa').kind).toBe('usage');
    expect(parseCommand('manifest man-26-27570')).toEqual({
      kind: 'manifest',
      number: 'MAN-26-027570',
      customer: undefined,
    });
    expect(parseCommand('manifest MAN-26-027570 Harborview')).toMatchObject({ customer: 'Harborview' });
    expect(parseCommand('manifest').kind).toBe('usage');
    expect(parseCommand('manifest 33570').kind).toBe('usage');
    expect(parseCommand('order ds-26-1234')).toEqual({ kind: 'order', number: 'DS-26-01234' });
    expect(parseCommand('order DS-26-01234 extra').kind).toBe('usage');
    expect(parseCommand('po')).toEqual({ kind: 'po', customer: undefined });
    expect(parseCommand('invoices Mercy General overdue')).toEqual({
      kind: 'invoices',
      customer: 'Mercy General',
      overdue: true,
    });
    expect(parseCommand('invoices')).toEqual({ kind: 'invoices', customer: undefined, overdue: false });
  });

  it('formats commands back to text that parses to the same command', () => {
    for (const text of [
      'balance',
      'balance Mercy Health',
      'signals par_drift Harborview Hotel',
      'ticket TKT-26-00417',
      'tickets resolved',
      'fillrate "Mercy General Hospital" 14 ICU',
      'fillrate Harborview 2026-11-01 2026-11-15',
      'tickets Mercy General Hospital resolved',
      'tickets "Mercy General Hospital"',
      'short',
      'short Mercy General Hospital ICU',
      'short "Mercy General Hospital" ICU North',
      'rewash Harborview Hotel 90',
      'rewash Harborview 2026-10-01 2026-10-31',
      'manifest MAN-26-027570 Harborview Hotel',
      'order DS-26-01234',
      'po Harborview Hotel',
      'invoices Mercy General overdue',
      'signals shortfall Mercy General Hospital',
    ]) {
      const cmd = parseCommand(text);
      expect(parseCommand(formatCommand(cmd))).toEqual(cmd);
    }
  });
});

describe('mrkdwn escaping and limits', () => {
  it('neutralises special mentions, user mentions and links', () => {
    const e = esc(EVIL);
    expect(e).not.toMatch(/[<>]/);
    expect(e).not.toMatch(/@(here|channel|everyone)\b/);
    expect(e).toContain('&amp;');
    expect(e).toContain('&lt;http://evil.example|click me&gt;');
    expect(esc('a\u0000b\u0007c')).toBe('abc');
  });

  it('truncates without cutting an entity or a token', () => {
    expect(truncate('abc', 5)).toBe('abc');
    expect(truncate('abcdefghij', 5)).toBe('abcd…');
    const t = truncate(`${'x'.repeat(8)}&amp;yyyy`, 11);
    expect(t).toBe(`${'x'.repeat(8)}…`);
    expect(truncate(`xx <@U123> yy`, 7)).toBe('xx …');
  });

  it('fits any message to the limits', () => {
    const big: Message = {
      text: 'x'.repeat(10_000),
      blocks: [
        ...Array.from({ length: 70 }, (_, i) => section(`${i} ${'y'.repeat(4000)}`)),
        fields(Array.from({ length: 14 }, () => 'z'.repeat(2500))),
        shareFooter('balance'),
      ],
    };
    const fit = fitMessage(big);
    expect(validateMessage(fit)).toEqual([]);
    expect(fit.blocks).toHaveLength(LIMITS.blocks);
    expect(fit.blocks.at(-1)).toEqual(shareFooter('balance'));
    expect(JSON.stringify(fit.blocks.at(-2))).toMatch(/…and \d+ more blocks not shown/);
  });
});

const customers: Customer[] = Array.from({ length: 30 }, (_, i) => ({
  id: `c${i}`,
  name: `${EVIL} ${i}`,
  is_group: false,
  created_at: '2026-01-01T00:00:00.000Z',
  departments: [{ id: `d${i}`, name: `Dept ${EVIL}` }],
}));

function invoice(i: number): Invoice {
  return {
    id: `inv${i}`,
    invoice_number: `PLS-26-${String(i).padStart(6, '0')}`,
    status: i % 2 ? 'sent' : 'partially_paid',
    customer_id: `c${i % 30}`,
    department_id: null,
    issued_at: '2026-10-01T15:00:00.000Z',
    due_at: i % 5 ? '2026-10-31T15:00:00.000Z' : null,
    sent_at: '2026-10-01T15:00:00.000Z',
    paid_at: null,
    subtotal_cents: 100_000,
    surcharges_cents: 0,
    tax_cents: 0,
    total_cents: 100_000,
    balance_cents: 50_000 + i,
    currency: i % 7 ? 'usd' : 'cad',
    pdf_url: `http://127.0.0.1/v1/files/invoice/inv${i}?key_id=k&expires=1&signature=s`,
  } as Invoice;
}

function allViews(): [string, Message][] {
  const invoices = Array.from({ length: 200 }, (_, i) => invoice(i));
  const balances: BalanceRow[] = customers.map((c, i) => ({
    customer_id: c.id,
    customer_name: c.name,
    balance_cents: 1000 * i,
    currency: i % 7 ? 'usd' : 'cad',
    aging: { current: 1000 * i, d1_30: 0, d31_60: 0, d61_plus: 0 },
  }));
  const signals: InventorySignal[] = Array.from({ length: 300 }, (_, i) => ({
    id: `s${i}`,
    kind: ['shortfall_streak', 'circulation_breach', 'par_drift', 'brand_new_kind'][i % 4]!,
    severity: (['low', 'medium', 'high'] as const)[i % 3]!,
    status: i % 5 ? 'open' : 'acknowledged',
    customer_id: `c${i % 30}`,
    department_id: i % 2 ? `d${i % 30}` : null,
    item_id: `it${i % 9}`,
    item_name: `Towel ${EVIL}`,
    summary: `${EVIL} ${'long summary '.repeat(30)}`,
    suggested_order_qty: i % 4 === 1 ? 120 : null,
    window_start: '2026-11-01',
    window_end: '2026-11-20',
    generated_at: '2026-11-20T08:00:00.000Z',
  }));
  const ticket: QualityTicket = {
    id: 't1',
    ticket_number: 'TKT-26-00417',
    kind: 'stain',
    kind_label: `Stain ${EVIL}`,
    status: 'resolved',
    status_label: 'Resolved',
    subject: `${EVIL} ${'subject '.repeat(40)}`,
    created_at: '2026-11-01T10:00:00.000Z',
    acknowledged_at: '2026-11-02T10:00:00.000Z',
    resolved_at: '2026-11-03T10:00:00.000Z',
    last_correspondence_at: null,
    resolution_note: `${EVIL}\n${'note line\n'.repeat(400)}`,
    customer_visible_events: Array.from({ length: 60 }, (_, i) => ({
      event_type: 'comment',
      actor_kind: 'provider',
      body: `${EVIL} ${'body '.repeat(100)} ${i}`,
      created_at: '2026-11-02T10:00:00.000Z',
    })),
  };
  const rows: DailyDeliveryRow[] = [];
  for (let d = 1; d <= 60; d++) {
    for (let it = 0; it < 40; it++) {
      rows.push({
        date: `2026-09-${String(Math.min(d, 30)).padStart(2, '0')}`,
        customer_id: 'c1',
        customer_name: customers[1]!.name,
        department_id: null,
        department_name: null,
        item_id: `it${it}`,
        item_name: `Item ${EVIL} ${it}`,
        delivered_count: 10 + it + d,
        daily_par: it % 7 ? 50 : null,
        fill_rate: null,
      });
    }
  }
  const fr = computeFillRate(rows, { customerId: 'c1', window: { from: '2026-08-01', to: '2026-10-30' } });
  const names = new Map(customers.map((c) => [c.id, c.name]));
  const short = {
    ...computeShort(
      Array.from({ length: 80 }, (_, i) => ({
        id: `cc${i}`,
        customer_id: `c${i % 30}`,
        cart_id: `cart${i}`,
        cart_name: EVIL,
        unit_id: `u${i % 7}`,
        unit_name: `Unit ${EVIL}`,
        date: '2026-11-20',
        status: 'in_progress' as const,
        unscheduled: false,
        counted_at: null,
        verified_at: null,
        lines: Array.from({ length: 6 }, (_, j) => ({
          item_id: `it${j}`,
          item_name: `Item ${EVIL} ${j}`,
          par: 40,
          on_hand: 10,
          required: 30,
          delivered: j,
          extra: 0,
          returned: 0,
        })),
      })),
    ),
    window: { from: '2026-11-14', to: '2026-11-20' },
    place: EVIL,
  };
  const manifest: ManifestDetail = {
    id: 'm1',
    manifest_number: 'MAN-26-027570',
    type: 'normal',
    status: 'delivered',
    customer_id: 'c1',
    department_id: 'd1',
    department_name: EVIL,
    created_at: '2026-11-01T10:00:00.000Z',
    picked_up_at: null,
    received_at: null,
    cleaned_at: null,
    staged_at: null,
    delivered_at: '2026-11-02T10:00:00.000Z',
    soil_weight_lb: 1200.5,
    clean_weight_lb: 1100.1,
    clean_piece_count: 900,
    variance_pct: 0.083,
    variance_within_tolerance: true,
    parent_manifest_id: null,
    amount_cents: 100,
    currency: 'usd',
    bins: Array.from({ length: 60 }, (_, i) => ({
      id: `b${i}`,
      side: i % 2 ? 'soil' : 'clean',
      content: EVIL,
      bin_ticket_number: `BT-${i}`,
      gross_lb: 100.1,
      tare_lb: 20,
      net_lb: 80.1,
      items: Array.from({ length: 10 }, (_, j) => ({
        item_id: `it${j}`,
        item_name: `${EVIL} ${j}`,
        piece_count: 10,
        disposition: j % 3 ? 'clean' : 'rewash_hold',
      })),
    })),
    held_rewash: { held_weight_lb: 12.4, status: 'pending', soil_rewash_lb: null, error_rewash_lb: null },
    rewash_links: {
      parent_manifest: { id: 'p', manifest_number: EVIL },
      rewash_children: Array.from({ length: 40 }, (_, i) => ({ id: `k${i}`, manifest_number: `${EVIL} ${i}` })),
    },
    signature: { signed_by_name: EVIL, signed_by_title: EVIL, delivered_at: '2026-11-02T10:00:00.000Z' },
  };
  const charge = (i: number) => ({
    id: `ch${i}`,
    kind: EVIL,
    description: `${EVIL} ${'charge '.repeat(10)}`,
    quantity: 3,
    unit_price_mills: 1250,
    amount_cents: 375,
  });
  const order: OrderDetail = {
    id: 'o1',
    order_number: 'DS-26-01234',
    stage: 'in_production',
    customer_id: 'c2',
    placed_at: '2026-11-01T10:00:00.000Z',
    requested_delivery_date: null,
    confirmed_delivery_date: null,
    delivered_at: null,
    subtotal_cents: 100_000,
    total_cents: 101_000,
    currency: 'usd',
    orderer_name: EVIL,
    wearer_name: EVIL,
    wearer_department: EVIL,
    delivery_location: EVIL,
    po_number: EVIL,
    line_count: 90,
    lines: Array.from({ length: 90 }, (_, i) => ({
      id: `l${i}`,
      line_number: i + 1,
      sku: `SKU-${i}`,
      description: `${EVIL} ${'description '.repeat(8)}`,
      size: 'XL',
      color: EVIL,
      quantity: 2,
      unit_price_cents: 1250,
      charges: [charge(i)],
      subtotal_cents: 2875,
    })),
    charges: Array.from({ length: 5 }, (_, i) => charge(100 + i)),
  };
  const pos = computePoStatus(
    Array.from({ length: 50 }, (_, i) => ({
      id: `po${i}`,
      customer_id: `c${i % 30}`,
      po_number: `${EVIL} ${i}`,
      status: 'active' as const,
      total_cents: 100_000,
      spent_cents: 1000 * i,
      remaining_cents: 100_000 - 1000 * i,
      currency: 'usd',
      started_at: '2026-01-01T06:00:00.000Z',
      expires_at: `2026-${String((i % 12) + 1).padStart(2, '0')}-15T06:00:00.000Z`,
    })),
    '2026-06-01',
    TZ,
  );
  const aged = ageInvoices(invoices, '2026-11-20', TZ);
  const rewash = computeRewashRate([], [], { from: '2026-10-01', to: '2026-10-30' });
  // A group with no balance of its own, its locations' rows added and labelled (names that need escaping).
  const groupAr = computeAr(
    [...balances, { ...balances[0]!, customer_id: 'g', customer_name: `${EVIL} Group`, balance_cents: 0 }],
    invoices,
    { customerId: 'g', customerName: `${EVIL} Group`, locations: customers.map((c) => c.name) },
  );
  return [
    ['help', helpMessage()],
    ['usage', usageMessage('fillrate', EVIL)],
    ['unknown', unknownMessage(EVIL)],
    ['error', errorMessage(EVIL)],
    ['choose', chooseCustomerMessage(EVIL, customers, (c) => `balance ${c.id}`)],
    ['balance', balanceMessage(computeAr(balances, invoices), { timeZone: TZ, now: new Date('2026-11-20T00:00:00Z') })],
    [
      'balance one',
      balanceMessage(computeAr(balances.slice(0, 1), invoices.slice(0, 3)), {
        timeZone: TZ,
        now: new Date(),
        customerName: EVIL,
      }),
    ],
    ['balance empty', balanceMessage(computeAr([], []), { timeZone: TZ, now: new Date() })],
    ['signals', signalsMessage(signals, customers, { kind: EVIL, customerName: EVIL })],
    ['signals none', signalsMessage([], customers)],
    ['ticket', ticketMessage({ ...ticket, statusLabel: 'Resolved' }, TZ)],
    [
      'tickets',
      ticketsMessage(
        Array.from({ length: 120 }, (_, i) => ({ ...ticket, ticket_number: `TKT-26-${String(i).padStart(5, '0')}` })),
        'open',
        TZ,
      ),
    ],
    ['tickets none', ticketsMessage([], 'resolved', TZ)],
    ['fillrate', fillRateMessage(fr, { customerName: EVIL, departmentName: EVIL })],
    ['short', shortMessage(short, { customerNames: names })],
    ['short none', shortMessage({ ...computeShort([]), window: short.window, place: null }, { customerNames: names })],
    ['rewash empty', rewashMessage(rewash, { customerName: EVIL })],
    [
      'rewash hidden',
      rewashMessage(
        { ...rewash, soilLb: 1000, rewashLb: 20, batches: 3, rate: 0.02, splitHidden: true, batchesWithoutSplit: 3 },
        { customerName: EVIL },
      ),
    ],
    [
      'manifest',
      manifestMessage(
        Array.from({ length: 7 }, () => manifest),
        { timeZone: TZ, customerNames: names },
      ),
    ],
    ['order', orderMessage([order, order], { timeZone: TZ, customerNames: names })],
    ['po', poMessage(pos, { timeZone: TZ, customerNames: names })],
    ['po none', poMessage([], { timeZone: TZ, customerNames: names, customerName: EVIL })],
    [
      'invoices',
      invoicesMessage(aged, { timeZone: TZ, customerNames: names, departmentNames: new Map(), overdueOnly: false }),
    ],
    [
      'invoices overdue none',
      invoicesMessage([], { timeZone: TZ, customerNames: names, departmentNames: new Map(), overdueOnly: true }),
    ],
    [
      'tickets by customer',
      ticketsMessage(
        Array.from({ length: 50 }, (_, i) => ({ ...ticket, customerId: `c${i % 30}` })),
        'open',
        TZ,
        { customerNames: names },
      ),
    ],
    ['balance group', balanceMessage(groupAr, { timeZone: TZ, now: new Date('2026-11-20T00:00:00Z') })],
    [
      'fillrate empty',
      fillRateMessage(computeFillRate([], { customerId: 'c1', window: { from: '2026-11-01', to: '2026-11-07' } }), {
        customerName: 'X',
      }),
    ],
  ];
}

describe('views over hostile and oversized data', () => {
  for (const [name, view] of allViews()) {
    it(`${name}: valid Block Kit within the limits, nothing from the data left active`, () => {
      const fitted = fitMessage({ text: view.text, blocks: [...view.blocks, shareFooter('x')] });
      expect(validateMessage(fitted, name)).toEqual([]);
      // The views themselves already stay within the limits (the limiter is only a safety net).
      expect(validateMessage(view, `${name} (unfitted)`)).toEqual([]);
      // (The validator checks every mrkdwn text and the fallback for active mentions and links; plain_text
      // headers and buttons are not parsed by Slack.)
      expect(renderMessage(fitted).length).toBeGreaterThan(0);
    });
  }

  it('long lists say how much they leave out', () => {
    const views = Object.fromEntries(allViews());
    expect(JSON.stringify(views.balance)).toMatch(/…and 180 more open invoices/);
    expect(JSON.stringify(views.balance)).toMatch(/…and 20 more customers/);
    expect(JSON.stringify(views.tickets)).toMatch(/…and 90 more tickets/);
    expect(JSON.stringify(views.fillrate)).toMatch(/…and \d+ more items/);
    expect(JSON.stringify(views.ticket)).toMatch(/latest 15 of 60/);
    expect(JSON.stringify(views.short)).toMatch(/…and \d+ more unit items/);
    expect(JSON.stringify(views.manifest)).toMatch(/…and \d more manifests/);
    expect(JSON.stringify(views.manifest)).toMatch(/…and 30 more bins/);
    expect(JSON.stringify(views.order)).toMatch(/…and \d+ more lines/);
    expect(JSON.stringify(views.po)).toMatch(/…and 20 more purchase orders/);
    expect(JSON.stringify(views.invoices)).toMatch(/…and 180 more invoices/);
  });

  it('sparkline scales to the window', () => {
    expect(sparkline([0.5, 1, null, 0.75])).toBe('▁█·▅');
    expect(sparkline([0.9, 0.9])).toBe('▅▅');
  });

  it('renders inline code as its text in the terminal', () => {
    expect(renderMessage({ text: 'x', blocks: [section('`  65.5%` Bath Towel · `▄█▇`')] })).toBe(
      '  65.5% Bath Towel · ▄█▇',
    );
  });

  it('renders Block Kit as terminal text: header, fields, context and buttons', () => {
    const text = renderMessage({
      text: 'x',
      blocks: [
        { type: 'header', text: { type: 'plain_text', text: 'Title' } },
        fields(['*Current*\n$1.00', '*61+ days*\n$2.00'], '*Mercy* &amp; co &lt;x&gt;'),
        { type: 'context', elements: [{ type: 'mrkdwn', text: '_note_' }] },
        { type: 'divider' },
        shareFooter('balance'),
      ],
    });
    expect(text).toBe(
      [
        'Title',
        '=====',
        'Mercy & co <x>',
        '  Current: $1.00',
        '  61+ days: $2.00',
        '  note',
        '-'.repeat(40),
        '  Buttons: [Share in channel]',
      ].join('\n'),
    );
  });
});
