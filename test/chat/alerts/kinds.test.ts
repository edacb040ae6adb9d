/**
 * The rules of each alert kind, one behaviour a test, over listings given as arrays: what is an occurrence and what
 * is not, its id, weight and time, and what each customer scope covers.
 */
import { describe, expect, expectTypeOf, it } from 'vitest';
import { budgetKind } from '../../../chat/alerts/kinds/budget.ts';
import { ALERT_KINDS, type AlertKindName, alertKindByWord } from '../../../chat/alerts/kinds/index.ts';
import { overdueKind } from '../../../chat/alerts/kinds/overdue.ts';
import { parMetKind } from '../../../chat/alerts/kinds/parmet.ts';
import { shortKind } from '../../../chat/alerts/kinds/short.ts';
import { signalKind } from '../../../chat/alerts/kinds/signal.ts';
import { ticketKind } from '../../../chat/alerts/kinds/ticket.ts';
import { plainText } from '../../../chat/content/rich.ts';
import {
  cartCount,
  countLine,
  deliveryRow,
  fakeReads,
  GENERAL,
  GROUP,
  HOTEL,
  invoice,
  NAMES,
  purchaseOrder,
  scope,
  signal,
  TIME,
  TODAY,
  TZ,
  ticket,
  WEST,
  YESTERDAY,
} from './fixtures.ts';

const NONE = new Set<string>();
const ctx = { customerNames: NAMES, timeZone: TZ };
const allText = (c: { summary: readonly unknown[]; parts: readonly unknown[] }) => JSON.stringify(c);

describe('the kinds list', () => {
  it('names six kinds, each found by each of its words whatever the case', () => {
    expect(ALERT_KINDS.map((k) => k.name)).toEqual(['short', 'signal', 'ticket', 'overdue', 'budget', 'parmet']);
    for (const k of ALERT_KINDS) for (const w of k.words) expect(alertKindByWord(` ${w.toUpperCase()} `)).toBe(k);
    expect(alertKindByWord('shortfall')).toBeUndefined();
    expect(alertKindByWord('')).toBeUndefined();
    expectTypeOf<AlertKindName>().toEqualTypeOf<'short' | 'signal' | 'ticket' | 'overdue' | 'budget' | 'parmet'>();
  });

  it('accounting alerts are overdue and budget alone', () => {
    expect(ALERT_KINDS.filter((k) => k.access === 'accounting').map((k) => k.name)).toEqual(['overdue', 'budget']);
  });

  it('only parmet is read once a day', () => {
    expect(ALERT_KINDS.filter((k) => k.cadence === 'daily').map((k) => k.name)).toEqual(['parmet']);
  });
});

describe('short', () => {
  it('a count of today no longer pending that misses pieces is an occurrence: id, weight, time and items', async () => {
    const c = cartCount({
      status: 'verified',
      counted_at: '2026-11-05T12:00:00Z',
      verified_at: '2026-11-05T12:20:00Z',
      lines: [countLine('Bath Towel', 40, 30), countLine('Flat Sheet', 60, 35), countLine('Washcloth', 10, 14)],
    });
    const [o, ...rest] = await shortKind.occurrences(scope({ minMissing: 1 }), fakeReads({ counts: [c] }), TIME, NONE);
    expect(rest).toEqual([]);
    expect(o!.id).toBe(`count:${c.id}`);
    expect(o!.weight).toBe(35);
    expect(o!.at).toBe('2026-11-05T12:20:00Z');
    // Worst first; an over-delivered line is not missing (never below 0).
    expect(o!.detail.items.map((i) => [i.name, i.missing])).toEqual([
      ['Flat Sheet', 25],
      ['Bath Towel', 10],
    ]);
  });

  it('pending counts and counts of other days are left out; in-progress ones count, timed when counted', async () => {
    const pending = cartCount({ status: 'pending', counted_at: null });
    const yesterday = cartCount({ date: YESTERDAY });
    const inProgress = cartCount({ status: 'in_progress', counted_at: null });
    const found = await shortKind.occurrences(
      scope({ minMissing: 1 }),
      fakeReads({ counts: [pending, yesterday, inProgress] }),
      TIME,
      NONE,
    );
    expect(found.map((o) => o.id)).toEqual([`count:${inProgress.id}`]);
    expect(found[0]!.at).toBeNull();
  });

  it('min N: a count missing exactly N pieces is told, one missing N − 1 is not', async () => {
    const nine = cartCount({ lines: [countLine('Bath Towel', 19, 10)] });
    const ten = cartCount({ lines: [countLine('Bath Towel', 20, 10)] });
    const found = await shortKind.occurrences(
      scope({ minMissing: 10 }),
      fakeReads({ counts: [nine, ten] }),
      TIME,
      NONE,
    );
    expect(found.map((o) => o.id)).toEqual([`count:${ten.id}`]);
    const whole = cartCount({ lines: [countLine('Bath Towel', 5, 5)] });
    expect(await shortKind.occurrences(scope({ minMissing: 1 }), fakeReads({ counts: [whole] }), TIME, NONE)).toEqual(
      [],
    );
  });

  it('a department stands for its units: counts of other units are left out', async () => {
    const icu = cartCount({ unit_id: 'u_icu' });
    const or = cartCount({ unit_id: 'u_or' });
    const none = cartCount({ unit_id: null });
    const found = await shortKind.occurrences(
      scope({ minMissing: 1, unitIds: ['u_icu'], place: 'ICU' }, [GENERAL.id]),
      fakeReads({ counts: [icu, or, none] }),
      TIME,
      NONE,
    );
    expect(found.map((o) => o.id)).toEqual([`count:${icu.id}`]);
  });

  it('resolve: a department finds its units by cost center, a unit by name, anything else is one sentence', async () => {
    const reads = fakeReads();
    const parsed = (place: string) => ({ options: { minMissing: 3 }, customer: GENERAL.name, place });
    expect(await shortKind.resolve!(parsed('Surgery'), GENERAL, reads)).toEqual({
      minMissing: 3,
      unitIds: ['u_or'],
      place: 'Surgery',
    });
    expect(await shortKind.resolve!(parsed('labor & delivery'), GENERAL, reads)).toEqual({
      minMissing: 3,
      unitIds: ['u_ld'],
      place: 'Labor & Delivery',
    });
    const refused = await shortKind.resolve!(parsed('Bakery'), GENERAL, reads);
    expect(refused).toEqual({ problem: expect.stringContaining('has no department or unit "Bakery"') });
    expect(await shortKind.resolve!(parsed('ICU'), undefined, reads)).toEqual({
      problem: expect.stringMatching(/^Give the customer/),
    });
    // Without a place nothing needs the API.
    expect(await shortKind.resolve!({ options: { minMissing: 1 } }, GENERAL, reads)).toEqual({ minMissing: 1 });
    expect(reads.calls.filter((c) => c !== 'units' && !c.startsWith('departments'))).toEqual([]);
  });
});

describe('signal', () => {
  const high = signal({ severity: 'high', suggested_order_qty: 100 });
  const highBigger = signal({ severity: 'high', suggested_order_qty: 300, kind: 'circulation_breach' });
  const medium = signal({ severity: 'medium', kind: 'over_fill' });
  const low = signal({ severity: 'low', kind: 'par_drift', customer_id: 'c_hotel', department_id: null });
  const signals = [low, medium, high, highBigger];

  it('every standing signal is an occurrence, weighted by severity then suggested order', async () => {
    const found = await signalKind.occurrences(scope({}), fakeReads({ signals }), TIME, NONE);
    expect(found.map((o) => o.id).sort()).toEqual(signals.map((s) => `signal:${s.id}`).sort());
    const ranked = [...found].sort((a, z) => z.weight - a.weight).map((o) => o.id);
    expect(ranked).toEqual([highBigger, high, medium, low].map((s) => `signal:${s.id}`));
    expect(found.find((o) => o.id === `signal:${high.id}`)!.at).toBe(high.generated_at);
    expect(found.find((o) => o.id === `signal:${high.id}`)!.detail.departmentName).toBe('ICU');
  });

  it('a severity keeps that severity and above', async () => {
    const found = await signalKind.occurrences(scope({ minSeverity: 'medium' }), fakeReads({ signals }), TIME, NONE);
    expect(found.map((o) => o.detail.severity).sort()).toEqual(['high', 'high', 'medium']);
  });

  it('shortfall means shortfall streaks and circulation breaches; another kind is itself, open to new ones', async () => {
    const ofKind = async (kind: string) =>
      (await signalKind.occurrences(scope({ kind }), fakeReads({ signals }), TIME, NONE)).map((o) => o.detail.kind);
    expect((await ofKind('shortfall')).sort()).toEqual(['circulation_breach', 'shortfall_streak']);
    expect(await ofKind('over_fill')).toEqual(['over_fill']);
    expect(await ofKind('par_drift')).toEqual(['par_drift']);
    expect(await ofKind('future_kind')).toEqual([]);
  });

  it('a named customer keeps its own signals; a signal of no customer only reaches an alert of every customer', async () => {
    const orgWide = signal({ customer_id: null, department_id: null });
    const reads = fakeReads({ signals: [...signals, orgWide] });
    const hotel = await signalKind.occurrences(scope({}, [HOTEL.id]), reads, TIME, NONE);
    expect(hotel.map((o) => o.id)).toEqual([`signal:${low.id}`]);
    const every = await signalKind.occurrences(scope({}), reads, TIME, NONE);
    expect(every.map((o) => o.id)).toContain(`signal:${orgWide.id}`);
  });
});

describe('ticket', () => {
  it('a ticket seen for the first time is newly opened, timed when it was created', async () => {
    const t = ticket();
    const [o] = await ticketKind.occurrences(scope({}), fakeReads({ tickets: { c_general: [t] } }), TIME, NONE);
    expect(o!.id).toBe(`ticket:${t.id}:new`);
    expect(o!.at).toBe(t.created_at);
    expect(o!.detail.previousStatus).toBeNull();
    const message = ticketKind.message(scope({}), [o!], ctx);
    expect(plainText(message.summary)).toContain('1 ticket opened');
  });

  it("a status change is a new id, and the message names the old status from the previous check's ids", async () => {
    const t = ticket({ status: 'acknowledged', status_label: 'Acknowledged', acknowledged_at: '2026-11-05T16:00:00Z' });
    const reads = fakeReads({ tickets: { c_general: [t] } });
    const [o] = await ticketKind.occurrences(scope({}), reads, TIME, new Set([`ticket:${t.id}:new`, 'signal:x']));
    expect(o!.id).toBe(`ticket:${t.id}:acknowledged`);
    expect(o!.detail.previousStatus).toBe('new');
    expect(o!.at).toBe('2026-11-05T16:00:00Z');
    const text = allText(ticketKind.message(scope({}), [o!], ctx));
    expect(text).toContain('Submitted → Acknowledged');
    expect(text).toContain(`ticket ${t.ticket_number}`);
    // Unchanged since the previous check: the same id, so nothing new to tell.
    const [same] = await ticketKind.occurrences(scope({}), reads, TIME, new Set([`ticket:${t.id}:acknowledged`]));
    expect(same!.id).toBe(`ticket:${t.id}:acknowledged`);
    expect(same!.detail.previousStatus).toBeNull();
  });

  it('resolved → verified names both statuses though they share a label; a reopened ticket ranks as a new one', async () => {
    const verified = ticket({ status: 'verified', status_label: 'Resolved' });
    const reopened = ticket({ status: 'in_progress', status_label: 'In progress' });
    const found = await ticketKind.occurrences(
      scope({}),
      fakeReads({ tickets: { c_general: [verified, reopened] } }),
      TIME,
      new Set([`ticket:${verified.id}:resolved`, `ticket:${reopened.id}:resolved`]),
    );
    const text = allText(ticketKind.message(scope({}), found, ctx));
    expect(text).toContain('Resolved → Verified');
    expect(text).toContain('Resolved → In progress');
    const byId = new Map(found.map((o) => [o.detail.ticketId, o]));
    expect(byId.get(reopened.id)!.weight).toBeGreaterThan(byId.get(verified.id)!.weight);
  });

  it("a group's alert reads the group's own tickets and its locations', one listing each", async () => {
    const own = ticket();
    const general = ticket();
    const west = ticket();
    const hotel = ticket();
    const reads = fakeReads({ tickets: { c_group: [own], c_general: [general], c_west: [west], c_hotel: [hotel] } });
    const found = await ticketKind.occurrences(scope({}, [GROUP.id]), reads, TIME, NONE);
    expect(found.map((o) => [o.detail.ticketId, o.detail.customerId])).toEqual([
      [own.id, GROUP.id],
      [general.id, GENERAL.id],
      [west.id, WEST.id],
    ]);
    expect(reads.calls.filter((c) => c.startsWith('ticketsOf')).sort()).toEqual([
      'ticketsOf c_general',
      'ticketsOf c_group',
      'ticketsOf c_west',
    ]);
  });
});

describe('overdue', () => {
  const due = (day: string) => `${day}T17:00:00Z`;

  it('an invoice exactly NN days overdue is told, timed at the start of the org-local day it got there', async () => {
    const sixty = invoice({ due_at: due('2026-09-06') });
    const fiftyNine = invoice({ due_at: due('2026-09-07') });
    const found = await overdueKind.occurrences(
      scope({ days: 60 }),
      fakeReads({ invoices: [sixty, fiftyNine] }),
      TIME,
      NONE,
    );
    expect(found.map((o) => o.id)).toEqual([`invoice:${sixty.id}`]);
    expect(found[0]!.detail.daysOverdue).toBe(60);
    expect(found[0]!.detail.dueDay).toBe('2026-09-06');
    // 2026-11-05 00:00 in Chicago (CST since 1 November).
    expect(found[0]!.at).toBe('2026-11-05T06:00:00.000Z');
    expect(found[0]!.weight).toBe(sixty.balance_cents);
  });

  it('due today is not overdue; yesterday is 1 day; no payment terms or nothing open is never overdue', async () => {
    const today = invoice({ due_at: due(TODAY) });
    const yesterday = invoice({ due_at: due(YESTERDAY) });
    const noTerms = invoice({ due_at: null });
    const paidUp = invoice({ due_at: due('2026-01-01'), balance_cents: 0 });
    const found = await overdueKind.occurrences(
      scope({ days: 1 }),
      fakeReads({ invoices: [today, yesterday, noTerms, paidUp] }),
      TIME,
      NONE,
    );
    expect(found.map((o) => [o.id, o.detail.daysOverdue])).toEqual([[`invoice:${yesterday.id}`, 1]]);
  });

  it("a named customer keeps its own invoices; a group's keeps its locations' too", async () => {
    const mine = invoice({ customer_id: 'c_west' });
    const theirs = invoice({ customer_id: 'c_hotel' });
    const reads = fakeReads({ invoices: [mine, theirs] });
    const west = await overdueKind.occurrences(scope({ days: 30 }, [WEST.id]), reads, TIME, NONE);
    expect(west.map((o) => o.id)).toEqual([`invoice:${mine.id}`]);
    const group = await overdueKind.occurrences(scope({ days: 30 }, [GROUP.id]), reads, TIME, NONE);
    expect(group.map((o) => o.id)).toEqual([`invoice:${mine.id}`]);
  });
});

describe('budget', () => {
  it('under NN% left is told, weighted by the share spent; exactly NN% left is not', async () => {
    const low = purchaseOrder({ total_cents: 1000, remaining_cents: 199 });
    const edge = purchaseOrder({ total_cents: 1000, remaining_cents: 200 });
    const found = await budgetKind.occurrences(
      scope({ percent: 20 }),
      fakeReads({ purchaseOrders: [low, edge] }),
      TIME,
      NONE,
    );
    expect(found.map((o) => o.id)).toEqual([`po:${low.id}`]);
    expect(found[0]!.weight).toBeCloseTo(0.801, 12);
    expect(found[0]!.detail.shareLeft).toBeCloseTo(0.199, 12);
    expect(found[0]!.detail.expiresDay).toBe('2026-12-31');
  });

  it('an order with a total of 0 is left out', async () => {
    const zero = purchaseOrder({ total_cents: 0, remaining_cents: 0, spent_cents: 0 });
    expect(
      await budgetKind.occurrences(scope({ percent: 100 }), fakeReads({ purchaseOrders: [zero] }), TIME, NONE),
    ).toEqual([]);
  });
});

describe('parmet', () => {
  const rows = [
    deliveryRow({ item_name: 'Bath Towel', item_id: 'i_towel', delivered_count: 50, daily_par: 100 }),
    deliveryRow({ item_name: 'Flat Sheet', item_id: 'i_sheet', delivered_count: 120, daily_par: 100 }),
    deliveryRow({ item_name: 'Underpad', item_id: 'i_pad', delivered_count: 40, daily_par: null }),
  ];

  it('par met of yesterday below NN%: one occurrence for the day, over-fill earning nothing, rows without par left out', async () => {
    const [o, ...rest] = await parMetKind.occurrences(
      scope({ belowPercent: 80 }),
      fakeReads({ deliveries: rows }),
      TIME,
      NONE,
    );
    expect(rest).toEqual([]);
    expect(o!.id).toBe(`day:${YESTERDAY}`);
    // (50 + 100) / 200 = 75 %; fill rate (50 + 120) / 200 = 85 %.
    expect(o!.detail.parMet).toBe(0.75);
    expect(o!.detail.fillRate).toBe(0.85);
    expect(o!.detail.worstItems.map((i) => i.name)).toEqual(['Bath Towel', 'Flat Sheet']);
    expect(o!.at).toBe('2026-11-05T06:00:00.000Z');
    expect(o!.weight).toBe(0.25);
  });

  it('par met at or above NN% says nothing; no row with a par says nothing', async () => {
    expect(
      await parMetKind.occurrences(scope({ belowPercent: 75 }), fakeReads({ deliveries: rows }), TIME, NONE),
    ).toEqual([]);
    const noPar = rows.map((r) => ({ ...r, daily_par: null }));
    expect(
      await parMetKind.occurrences(scope({ belowPercent: 100 }), fakeReads({ deliveries: noPar }), TIME, NONE),
    ).toEqual([]);
    expect(await parMetKind.occurrences(scope({ belowPercent: 100 }), fakeReads(), TIME, NONE)).toEqual([]);
  });

  it('reads the last whole day only, and the department named', async () => {
    const reads = fakeReads({
      deliveries: [
        ...rows,
        deliveryRow({ date: TODAY, delivered_count: 0 }),
        deliveryRow({ department_id: 'd_surgery', delivered_count: 0, daily_par: 1000 }),
      ],
    });
    const [o] = await parMetKind.occurrences(
      scope({ belowPercent: 99, departmentId: 'd_icu', department: 'ICU' }, [GENERAL.id]),
      reads,
      TIME,
      NONE,
    );
    expect(o!.detail.parMet).toBe(0.75);
    expect(reads.calls).toContain(`deliveries ${YESTERDAY}`);
  });

  it("a group's alert covers its locations' rows, and the action asks about the worst of them", async () => {
    const reads = fakeReads({
      deliveries: [
        ...rows,
        deliveryRow({ customer_id: 'c_west', delivered_count: 10, daily_par: 100, department_id: null }),
        deliveryRow({ customer_id: 'c_hotel', delivered_count: 0, daily_par: 500 }),
      ],
    });
    const [o] = await parMetKind.occurrences(scope({ belowPercent: 90 }, [GROUP.id]), reads, TIME, NONE);
    // (150 + 10) / 300
    expect(o!.detail.parMet).toBeCloseTo(160 / 300, 12);
    expect(o!.detail.worstCustomerId).toBe('c_west');
    expect(o!.detail.customers).toBe(2);
    const message = parMetKind.message(scope({ belowPercent: 90 }, [GROUP.id]), [o!], ctx);
    expect(allText(message)).toContain(`fillrate \\"Mercy West Surgery Center\\" ${YESTERDAY} ${YESTERDAY}`);
  });

  it('resolve: a department of the customer by name, or one sentence naming its departments', async () => {
    const reads = fakeReads();
    expect(
      await parMetKind.resolve!({ options: { belowPercent: 90 }, customer: 'x', place: 'icu' }, GENERAL, reads),
    ).toEqual({ belowPercent: 90, departmentId: 'd_icu', department: 'ICU' });
    expect(
      await parMetKind.resolve!({ options: { belowPercent: 90 }, customer: 'x', place: 'Spa' }, GENERAL, reads),
    ).toEqual({ problem: 'Mercy General Hospital has no department “Spa”; its departments are ICU, Surgery.' });
    expect(reads.calls).toEqual([]);
  });
});
