/**
 * Each alert kind over the seeded sandbox, through `alertReads` and the real client over HTTP, against what the test
 * reads itself from the raw `/v1` listings and computes without the product's code: the same occurrences, ids and
 * weights, for every customer, a named one and a group with its locations.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AlertKind, AlertReads, AlertScope, CheckTime, Occurrence } from '../../../chat/alerts/kind.ts';
import { budgetKind } from '../../../chat/alerts/kinds/budget.ts';
import { overdueKind } from '../../../chat/alerts/kinds/overdue.ts';
import { parMetKind } from '../../../chat/alerts/kinds/parmet.ts';
import { shortKind } from '../../../chat/alerts/kinds/short.ts';
import { signalKind } from '../../../chat/alerts/kinds/signal.ts';
import { ticketKind } from '../../../chat/alerts/kinds/ticket.ts';
import { alertReads, TICKET_DAYS } from '../../../chat/alerts/reads.ts';
import { plainText } from '../../../chat/content/rich.ts';
import type { Sandbox } from '../../../sandbox/index.ts';
import { createLinenClient, type LinenClient } from '../../../shared/node.ts';
import { expectedDaysOverdue, expectedFill, localDay } from '../../support/expected-figures.ts';
import { KEYS, listAll, startTestSandbox, TODAY } from '../../support/sandbox-http.ts';

const TZ = 'America/Chicago';
const YESTERDAY = '2026-11-04';
const NOW = new Date(`${TODAY}T18:00:00Z`);
const TIME: CheckTime = { now: NOW, today: TODAY, yesterday: YESTERDAY };
const NONE = new Set<string>();

let sandbox: Sandbox;
let client: LinenClient;
let reads: AlertReads;
let customers: { id: string; name: string; is_group: boolean }[];
const byName = (name: string) => customers.find((c) => c.name === name)!;

beforeAll(async () => {
  sandbox = await startTestSandbox();
  client = createLinenClient({
    apiKey: KEYS.all,
    baseUrl: sandbox.baseUrl,
    timeZone: TZ,
    pacing: false,
    now: () => NOW.getTime(),
  });
  reads = alertReads(client, { now: NOW });
  customers = await listAll(sandbox, '/customers');
});
afterAll(async () => {
  await client?.close();
  await sandbox?.close();
});

const scope = <O>(options: O, customerIds: string[] = []): AlertScope<O> => ({ options, customerIds, timeZone: TZ });
const run = <O, D>(kind: AlertKind<string, O, D>, s: AlertScope<O>, previous: ReadonlySet<string> = NONE) =>
  kind.occurrences(s, reads, TIME, previous);
/** Ids with their weights, in id order: what two readings must agree on. */
const weighed = (found: readonly Pick<Occurrence, 'id' | 'weight'>[]) =>
  found.map((o) => [o.id, o.weight] as const).sort(([a], [b]) => (a < b ? -1 : 1));

/** The group's locations as the product decides them: non-group customers named with the group's first word. */
function withLocations(groupName: string): string[] {
  const word = groupName.split(' ')[0]!.toLowerCase();
  return [
    byName(groupName).id,
    ...customers.filter((c) => !c.is_group && c.name.toLowerCase().startsWith(`${word} `)).map((c) => c.id),
  ];
}

describe('short over the seeded counts of today', () => {
  const missingOf = (c: any) =>
    c.lines.reduce((s: number, l: any) => s + Math.max(0, l.required - l.delivered), 0) as number;

  it('every count of today that is no longer pending and misses pieces, weighted by the pieces missing', async () => {
    const raw = await listAll(sandbox, '/inventory/counts', { from: TODAY, to: TODAY });
    // The seed has both, or the rule would not be tested.
    expect(raw.some((c) => c.status === 'pending' && missingOf(c) > 0)).toBe(true);
    const want = raw
      .filter((c) => c.status !== 'pending' && missingOf(c) >= 1)
      .map((c) => ({ id: `count:${c.id}`, weight: missingOf(c) }));
    expect(want.length).toBeGreaterThan(3);
    expect(weighed(await run(shortKind, scope({ minMissing: 1 })))).toEqual(weighed(want));

    // min N keeps the counts missing N or more: the boundary is a seeded count's own figure.
    const n = [...want].sort((a, b) => a.weight - b.weight)[Math.floor(want.length / 2)]!.weight;
    const atLeast = await run(shortKind, scope({ minMissing: n }));
    expect(weighed(atLeast)).toEqual(weighed(want.filter((w) => w.weight >= n)));
    expect(atLeast.some((o) => o.weight === n)).toBe(true);
  });

  it("a group's alert covers its locations' counts only", async () => {
    const ids = withLocations('Mercy Health');
    const raw = await listAll(sandbox, '/inventory/counts', { from: TODAY, to: TODAY });
    const want = raw
      .filter((c) => ids.includes(c.customer_id) && c.status !== 'pending' && missingOf(c) >= 1)
      .map((c) => ({ id: `count:${c.id}`, weight: missingOf(c) }));
    expect(want.length).toBeGreaterThan(0);
    expect(raw.some((c) => !ids.includes(c.customer_id) && c.status !== 'pending')).toBe(true);
    expect(weighed(await run(shortKind, scope({ minMissing: 1 }, [byName('Mercy Health').id])))).toEqual(weighed(want));
  });

  it('a department stands for the units of its cost center, read from the departments and units listings', async () => {
    const mercy = byName('Mercy General Hospital');
    const customer = (await client.customers.list().all()).find((c) => c.id === mercy.id)!;
    const options = await shortKind.resolve!(
      { options: { minMissing: 1 }, customer: mercy.name, place: 'Surgery' },
      customer,
      reads,
    );
    const depts = await listAll(sandbox, `/customers/${mercy.id}/departments`);
    const surgery = depts.find((d) => d.name === 'Surgery')!;
    const units = (await listAll(sandbox, '/inventory/units', { customer_id: mercy.id })).filter(
      (u) => u.cost_center === surgery.cost_center_code,
    );
    // The unit's name does not say Surgery: only the cost center ties them.
    expect(units.map((u) => u.name)).toEqual(['Surgical Services']);
    expect(options).toEqual({ minMissing: 1, unitIds: units.map((u) => u.id), place: 'Surgery' });

    const raw = await listAll(sandbox, '/inventory/counts', { from: TODAY, to: TODAY });
    const want = raw
      .filter((c) => c.unit_id === units[0].id && c.status !== 'pending' && missingOf(c) >= 1)
      .map((c) => ({ id: `count:${c.id}`, weight: missingOf(c) }));
    expect(want.length).toBeGreaterThan(0);
    const found = await run(shortKind, scope(options as { minMissing: number }, [mercy.id]));
    expect(weighed(found)).toEqual(weighed(want));
    const message = shortKind.message(scope(options as { minMissing: number }, [mercy.id]), found, {
      customerNames: new Map(customers.map((c) => [c.id, c.name])),
      timeZone: TZ,
    });
    expect(message.parts.at(-1)).toEqual({
      kind: 'actions',
      actions: [{ kind: 'rerun', label: 'Show what is short', command: 'short "Mercy General Hospital" Surgery' }],
    });
  });
});

describe('signal over the seeded signals', () => {
  const RANK: Record<string, number> = { low: 1, medium: 2, high: 3 };

  it.each([
    [{}, () => true],
    [{ kind: 'shortfall' }, (s: any) => ['shortfall_streak', 'circulation_breach'].includes(s.kind)],
    [{ minSeverity: 'high' as const }, (s: any) => s.severity === 'high'],
    [
      { kind: 'par_drift', minSeverity: 'medium' as const },
      (s: any) => s.kind === 'par_drift' && RANK[s.severity]! >= 2,
    ],
  ])('options %j: the open and acknowledged signals that match', async (options, keep) => {
    const raw = await listAll(sandbox, '/inventory/signals');
    const want = raw.filter(keep).map((s) => s.id);
    expect(want.length).toBeGreaterThan(0);
    const found = await run(signalKind, scope(options));
    expect(found.map((o) => o.id).sort()).toEqual(want.map((id) => `signal:${id}`).sort());
    for (const o of found) {
      const s = raw.find((r) => `signal:${r.id}` === o.id)!;
      expect(o.at).toBe(s.generated_at);
      expect(o.detail.suggestedOrderQty).toBe(s.suggested_order_qty);
    }
  });

  it("a named customer's alert keeps its own signals", async () => {
    const hotel = byName('Harborview Hotel');
    const raw = await listAll(sandbox, '/inventory/signals', { customer_id: hotel.id });
    const found = await run(signalKind, scope({}, [hotel.id]));
    expect(found.map((o) => o.id).sort()).toEqual(raw.map((s) => `signal:${s.id}`).sort());
  });
});

describe('ticket over the seeded tickets', () => {
  const from = () => {
    const d = new Date(`${TODAY}T12:00:00Z`);
    d.setUTCDate(d.getUTCDate() - TICKET_DAYS);
    return d.toISOString().slice(0, 10);
  };

  it("a group's alert: the group's own tickets and its locations', each status its own id", async () => {
    const ids = withLocations('Mercy Health');
    const want: string[] = [];
    for (const id of ids)
      for (const t of await listAll(sandbox, '/quality-tickets', { customer_id: id, from: from() }))
        want.push(`ticket:${t.id}:${t.status}`);
    expect(want.length).toBeGreaterThan(3);
    const found = await run(ticketKind, scope({}, [byName('Mercy Health').id]));
    expect(found.map((o) => o.id).sort()).toEqual(want.sort());
    expect(new Set(found.map((o) => o.detail.customerId))).toEqual(new Set(ids));
  });

  it('a ticket whose previous id had another status is told as that change', async () => {
    const hotel = byName('Harborview Hotel');
    const raw = await listAll(sandbox, '/quality-tickets', { customer_id: hotel.id, from: from() });
    const moved = raw.find((t) => t.status === 'in_progress')!;
    const found = await run(ticketKind, scope({}, [hotel.id]), new Set([`ticket:${moved.id}:acknowledged`]));
    const told = found.find((o) => o.id === `ticket:${moved.id}:in_progress`)!;
    expect(told.detail.previousStatus).toBe('acknowledged');
    const message = ticketKind.message(scope({}, [hotel.id]), [told], {
      customerNames: new Map(customers.map((c) => [c.id, c.name])),
      timeZone: TZ,
    });
    expect(JSON.stringify(message)).toContain('Acknowledged → In progress');
    expect(plainText(message.summary)).toContain(moved.ticket_number);
  });
});

describe('overdue over the seeded invoices', () => {
  it.each([30, 60, 100])(
    '%id: the open invoices that many days overdue or more, weighted by the amount open',
    async (days) => {
      const raw = [
        ...(await listAll(sandbox, '/invoices', { status: 'sent' })),
        ...(await listAll(sandbox, '/invoices', { status: 'partially_paid' })),
      ];
      const want = raw
        .filter((i) => i.balance_cents > 0 && i.due_at !== null && expectedDaysOverdue(i.due_at, TODAY, TZ) >= days)
        .map((i) => ({ id: `invoice:${i.id}`, weight: i.balance_cents }));
      expect(want.length).toBeGreaterThan(0);
      const found = await run(overdueKind, scope({ days }));
      expect(weighed(found)).toEqual(weighed(want));
      for (const o of found) {
        const inv = raw.find((i) => `invoice:${i.id}` === o.id)!;
        expect(o.detail.dueDay).toBe(localDay(inv.due_at, TZ));
        expect(o.detail.daysOverdue).toBe(expectedDaysOverdue(inv.due_at, TODAY, TZ));
      }
    },
  );
});

describe('budget over the seeded purchase orders', () => {
  it.each([20, 60, 100])('under %i% left: the active orders below it, weighted by the share spent', async (percent) => {
    const raw = await listAll(sandbox, '/purchase-orders', { status: 'active' });
    const want = raw
      .filter((p) => p.total_cents > 0 && p.remaining_cents / p.total_cents < percent / 100)
      .map((p) => ({ id: `po:${p.id}`, weight: 1 - p.remaining_cents / p.total_cents }));
    const found = await run(budgetKind, scope({ percent }));
    expect(weighed(found)).toEqual(weighed(want));
    if (percent === 20) expect(found).toEqual([]);
    else expect(found.length).toBeGreaterThan(0);
  });
});

describe('parmet over the seeded deliveries of yesterday', () => {
  it('par met of every customer and of a customer, from the raw rows; nothing when it is not below', async () => {
    const rows = await listAll(sandbox, '/deliveries/daily', { from: YESTERDAY, to: YESTERDAY });
    const all = expectedFill(rows);
    const [o] = await run(parMetKind, scope({ belowPercent: 100 }));
    expect(o!.id).toBe(`day:${YESTERDAY}`);
    expect(o!.detail.parMet).toBeCloseTo(all.parMet, 12);
    expect(o!.detail.fillRate).toBeCloseTo(all.fill, 12);
    expect([o!.detail.met, o!.detail.par]).toEqual([all.met, all.par]);
    expect(await run(parMetKind, scope({ belowPercent: Math.floor(all.parMet * 100) }))).toEqual([]);

    const mercy = byName('Mercy General Hospital');
    const customer = (await client.customers.list().all()).find((c) => c.id === mercy.id)!;
    const options = (await parMetKind.resolve!(
      { options: { belowPercent: 100 }, customer: mercy.name, place: 'ICU' },
      customer,
      reads,
    )) as { belowPercent: number; departmentId: string };
    const icu = expectedFill(rows.filter((r) => r.department_id === options.departmentId));
    const [dept] = await run(parMetKind, scope(options, [mercy.id]));
    expect(dept!.detail.parMet).toBeCloseTo(icu.parMet, 12);
    expect([dept!.detail.met, dept!.detail.par]).toEqual([icu.met, icu.par]);
  });
});
