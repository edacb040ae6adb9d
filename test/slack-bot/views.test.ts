/**
 * The pure parts of the bot: the grammar, mrkdwn escaping, the Block Kit limiter, and every view run over
 * hostile and oversized data through the Block Kit validator (no network).
 */
import { describe, expect, it } from 'vitest';
import { computeAr, computeFillRate } from '../../shared/reports/index.ts';
import type { BalanceRow, Invoice } from '../../shared/schemas/accounting.ts';
import type { Customer } from '../../shared/schemas/customers.ts';
import type { InventorySignal } from '../../shared/schemas/inventory.ts';
import type { DailyDeliveryRow } from '../../shared/schemas/processing.ts';
import type { QualityTicket } from '../../shared/schemas/quality.ts';
import { formatCommand, parseCommand } from '../../slack-bot/answers/grammar.ts';
import { fields, type Message, section } from '../../slack-bot/blocks/kit.ts';
import { fitMessage, LIMITS, truncate } from '../../slack-bot/blocks/limits.ts';
import { esc } from '../../slack-bot/blocks/mrkdwn.ts';
import { renderMessage } from '../../slack-bot/console/render.ts';
import { balanceMessage } from '../../slack-bot/views/balance.ts';
import { chooseCustomerMessage, errorMessage, shareFooter } from '../../slack-bot/views/common.ts';
import { fillRateMessage, sparkline } from '../../slack-bot/views/fillrate.ts';
import { helpMessage, unknownMessage, usageMessage } from '../../slack-bot/views/help.ts';
import { signalsMessage } from '../../slack-bot/views/signals.ts';
import { ticketMessage, ticketsMessage } from '../../slack-bot/views/tickets.ts';
import { validateMessage } from '../support/slack-blockkit.ts';

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
    expect(parseCommand('tickets nope').kind).toBe('usage');
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

  it('formats commands back to text that parses to the same command', () => {
    for (const text of [
      'balance',
      'balance Mercy Health',
      'signals par_drift Harborview Hotel',
      'ticket TKT-26-00417',
      'tickets resolved',
      'fillrate "Mercy General Hospital" 14 ICU',
      'fillrate Harborview 2026-11-01 2026-11-15',
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
  });

  it('sparkline scales to the window', () => {
    expect(sparkline([0.5, 1, null, 0.75])).toBe('▁█·▅');
    expect(sparkline([0.9, 0.9])).toBe('▅▅');
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
