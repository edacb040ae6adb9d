/**
 * One message per check, for every kind: within the content limits for one occurrence and for 200 (the rest
 * counted, never cut mid-line), worst first, with the command to see more, said as a test when it is one; rendered
 * as Block Kit without trimming and as an Adaptive Card without dropping a part. Names from the API are long and
 * hostile here, as they may be.
 */
import { describe, expect, it } from 'vitest';
import type { AlertKind, Occurrence } from '../../../chat/alerts/kind.ts';
import { ALERT_KINDS } from '../../../chat/alerts/kinds/index.ts';
import { parseCommand } from '../../../chat/answers/grammar.ts';
import type { Content } from '../../../chat/content/document.ts';
import { plainText, type Rich } from '../../../chat/content/rich.ts';
import { toBlockKit } from '../../../slack-bot/blocks/render.ts';
import { CARD_BYTES, toAdaptiveCard } from '../../../teams-bot/cards/render.ts';
import { validateMessage } from '../../support/slack-blockkit.ts';
import {
  cartCount,
  countLine,
  customer,
  deliveryRow,
  fakeReads,
  invoice,
  limitProblems,
  purchaseOrder,
  scope,
  signal,
  TIME,
  TZ,
  ticket,
} from './fixtures.ts';

/** What API text may carry: markup, mentions, long words. */
const HOSTILE_NAME = '<!channel> *Bold* & `code` _x_ [link](http://x) ';
const long = (i: number) => `${HOSTILE_NAME}${'Wing '.repeat(30)}#${i}`;
const CUSTOMER = customer('c1', `Mercy General Hospital ${'& Clinics '.repeat(12)}`);
const NAMES = new Map([[CUSTOMER.id, CUSTOMER.name]]);

/** n occurrences of a kind built by the kind itself from listings, each with its own weight and a key to find it. */
async function occurrencesOf(
  name: string,
  n: number,
): Promise<{ kind: AlertKind; found: Occurrence[]; options: unknown; key: (o: Occurrence) => string }> {
  const kind = ALERT_KINDS.find((k) => k.name === name)! as unknown as AlertKind;
  const i = Array.from({ length: n }, (_, k) => k);
  const reads = fakeReads({
    customers: [CUSTOMER],
    counts: i.map((k) =>
      cartCount({
        customer_id: 'c1',
        cart_name: `Cart ${k} ${long(k)}`,
        unit_name: long(k),
        lines: Array.from({ length: 14 }, (_, j) => countLine(`${long(j)} item ${j}`, 10 + k + j, 5)),
      }),
    ),
    signals: i.map((k) =>
      signal({
        customer_id: 'c1',
        department_id: null,
        severity: (['low', 'medium', 'high'] as const)[k % 3],
        suggested_order_qty: k,
        summary: `Signal ${k} ${long(k)}`,
        item_name: long(k),
      }),
    ),
    tickets: {
      c1: i.map((k) =>
        ticket({
          ticket_number: `TKT-26-${String(k).padStart(5, '0')}`,
          status: (['new', 'acknowledged', 'in_progress', 'resolved', 'verified'] as const)[k % 5],
          subject: long(k),
          kind_label: long(k),
        }),
      ),
    },
    invoices: i.map((k) =>
      invoice({
        customer_id: 'c1',
        invoice_number: `PLS-26-${String(k).padStart(6, '0')}`,
        balance_cents: 1000 + k,
        currency: k % 7 ? 'usd' : 'cad',
      }),
    ),
    purchaseOrders: i.map((k) =>
      purchaseOrder({
        customer_id: 'c1',
        po_number: `PO-${k} ${long(k)}`,
        total_cents: 100_000,
        remaining_cents: 1000 + k,
      }),
    ),
    deliveries: i.map((k) =>
      deliveryRow({ customer_id: 'c1', item_id: `i${k}`, item_name: long(k), delivered_count: k % 50, daily_par: 100 }),
    ),
  });
  const options = {
    short: { minMissing: 1 },
    signal: {},
    ticket: {},
    overdue: { days: 30 },
    budget: { percent: 20 },
    parmet: { belowPercent: 95 },
  }[name];
  const s = scope(options, ['c1']);
  let found = await kind.occurrences(s, reads, TIME, new Set(['ticket:x:new']));
  if (name === 'parmet') {
    // One day a check; a message of many days (checks missed) is built the same way.
    const [day] = found;
    found = i.map((k) => ({
      ...day!,
      id: `day:${k}`,
      weight: k / n,
      detail: { ...(day!.detail as object), day: `D${k}` },
    }));
  }
  const key = (o: Occurrence): string => {
    const d = o.detail as Record<string, unknown>;
    if (name === 'short') return `Cart ${String(d.cartName).split(' ')[1]} `;
    if (name === 'signal') return `Signal ${String(d.summary).split(' ')[1]} `;
    if (name === 'parmet') return `${String(d.day)} `;
    return `${String(d.number).split(' ')[0]} `;
  };
  expect(found).toHaveLength(n);
  return { kind, found, options, key };
}

const textOf = (c: Content): string =>
  c.parts
    .map((p): string => {
      if (p.kind === 'title') return p.text;
      if (p.kind === 'text') return plainText(p.text);
      if (p.kind === 'note') return p.texts.map((t: Rich) => plainText(t)).join(' ');
      if (p.kind === 'fields') return p.fields.map((f) => `${f.label} ${plainText(f.value)}`).join(' ');
      return '';
    })
    .join('\n');

describe.each(ALERT_KINDS.map((k) => k.name))('%s', (name) => {
  it.each([1, 200])('%i occurrences: one message within the limits, worst first, with its command', async (n) => {
    const { kind, found, options, key } = await occurrencesOf(name, n);
    const s = scope(options, ['c1']);
    // However the engine hands them over.
    const message = kind.message(s, [...found].reverse(), { customerNames: NAMES, timeZone: TZ });
    expect(limitProblems(message)).toEqual([]);
    expect(validateMessage(toBlockKit(message), name)).toEqual([]);
    const card = toAdaptiveCard(message);
    expect(JSON.stringify(card)).not.toContain('not shown (narrow the command');
    expect(Buffer.byteLength(JSON.stringify(card))).toBeLessThanOrEqual(CARD_BYTES);

    const text = textOf(message);
    const ranked = [...found].sort((a, z) => z.weight - a.weight || (a.id < z.id ? -1 : 1));
    const listed = ranked.filter((o) => text.includes(key(o)));
    // The worst are listed, as many as fit, in order; the rest are counted.
    expect(listed).toEqual(ranked.slice(0, listed.length));
    expect(listed.length).toBeGreaterThanOrEqual(Math.min(n, 10));
    const shown = listed.map((o) => text.indexOf(key(o)));
    expect(shown.every((at) => at >= 0)).toBe(true);
    expect(shown).toEqual([...shown].sort((a, z) => a - z));
    if (n > listed.length) expect(text).toContain(`…and ${n - listed.length} more`);

    const actions = message.parts.flatMap((p) => (p.kind === 'actions' ? p.actions : []));
    expect(actions.length).toBeGreaterThan(0);
    for (const a of actions) {
      expect(a.kind).toBe('rerun');
      const cmd = parseCommand(a.kind === 'rerun' ? a.command : '');
      expect(['unknown', 'usage', 'help']).not.toContain(cmd.kind);
    }
  });

  it('a test says so, in its title and its summary', async () => {
    const { kind, found, options } = await occurrencesOf(name, 3);
    const message = kind.message(scope(options, ['c1']), found, { customerNames: NAMES, timeZone: TZ, test: true });
    expect(message.parts[0]).toEqual({ kind: 'title', text: expect.stringMatching(/^Test: /) });
    expect(plainText(message.summary)).toMatch(/^Test: /);
    expect(textOf(message)).toContain('A test of this alert');
    const real = kind.message(scope(options, ['c1']), found, { customerNames: NAMES, timeZone: TZ });
    expect(textOf(real)).not.toContain('Test');
  });

  it('describe and the confirmation line name what it watches and the command that lists it', () => {
    const kind = ALERT_KINDS.find((k) => k.name === name)! as unknown as AlertKind;
    const options = {
      short: { minMissing: 5 },
      signal: { kind: 'shortfall', minSeverity: 'high' },
      ticket: {},
      overdue: { days: 60 },
      budget: { percent: 20 },
      parmet: { belowPercent: 90 },
    }[name];
    const names = new Map([['c1', 'Mercy General Hospital']]);
    expect(kind.describe(scope(options, ['c1']), names)).toContain('Mercy General Hospital');
    expect(kind.describe(scope(options), names)).toContain('every customer');
    for (const n of [0, 1, 3]) {
      const said = kind.nowLine(scope(options, ['c1']), n, names);
      const commands = said.filter((p) => typeof p !== 'string' && 'command' in p);
      expect(commands).toHaveLength(1);
      expect(plainText(said, '/linen ')).toMatch(/\/linen \S+/);
      if (n === 3 && name !== 'parmet') expect(plainText(said)).toMatch(/^3 /);
    }
  });
});

describe('what the messages say', () => {
  it('short: the cart, the unit, how much and the items missing, with the short command of its place', async () => {
    const c = cartCount({
      cart_name: 'ICU North Cart B',
      unit_name: 'ICU North',
      lines: [countLine('Bath Towel', 40, 10), countLine('Flat Sheet', 20, 15)],
    });
    const kind = ALERT_KINDS[0];
    const s = scope({ minMissing: 1, unitIds: ['u_icu'], place: 'ICU' }, ['c_general']);
    const found = await kind.occurrences(s, fakeReads({ counts: [c] }), TIME, new Set());
    const message = kind.message(s, found, {
      customerNames: new Map([['c_general', 'Mercy General Hospital']]),
      timeZone: TZ,
    });
    const text = textOf(message);
    expect(text).toContain('1 cart short at Mercy General Hospital › ICU');
    expect(text).toContain('35 pieces');
    expect(text).toContain('30 Bath Towel: 10 of 40 required delivered');
    expect(text).toContain('5 Flat Sheet');
    expect(text.indexOf('Bath Towel')).toBeLessThan(text.indexOf('Flat Sheet'));
    expect(message.parts.at(-1)).toEqual({
      kind: 'actions',
      actions: [{ kind: 'rerun', label: 'Show what is short', command: 'short "Mercy General Hospital" ICU' }],
    });
  });

  it('overdue: sums per currency, never across them', async () => {
    const kind = ALERT_KINDS.find((k) => k.name === 'overdue')!;
    const s = scope({ days: 30 });
    const found = await kind.occurrences(
      s,
      fakeReads({
        invoices: [
          invoice({ balance_cents: 10_000 }),
          invoice({ balance_cents: 5_000, currency: 'cad' }),
          invoice({ balance_cents: 2_500 }),
        ],
      }),
      TIME,
      new Set(),
    );
    expect(textOf(kind.message(s, found, { customerNames: new Map(), timeZone: TZ }))).toContain(
      'CA$50.00 and $125.00 open',
    );
  });
});
