/** Reports against the sandbox, checked against values computed here from the sandbox's own data. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays } from '../../shared/dates.ts';
import {
  createLinenClient,
  createLinenClientSync,
  InvalidParamsError,
  type LinenClient,
  type LinenClientSync,
  NotFoundError,
  UndiciTransport,
} from '../../shared/node.ts';
import { BlockingTransport, blockingSleep, startWorkerSandbox, type WorkerSandbox } from '../support/worker-sandbox.ts';

const ALL = 'lk_live_demo_all_access';
const TODAY = '2025-03-20';
const TZ = 'America/Chicago';

let sb: WorkerSandbox;
let blocking: BlockingTransport;
let undici: UndiciTransport;
const clients: Record<'async' | 'sync', LinenClient | LinenClientSync> = {} as never;

beforeAll(async () => {
  sb = await startWorkerSandbox({ today: TODAY, timeZone: TZ, rateLimit: { limit: 100_000, windowMs: 60_000 } });
  blocking = new BlockingTransport();
  undici = new UndiciTransport();
  const now = () => Date.parse('2025-03-20T18:00:00Z');
  const base = { apiKey: ALL, baseUrl: sb.baseUrl, timeZone: TZ, now };
  clients.async = createLinenClient({ ...base, transport: undici });
  clients.sync = createLinenClientSync({ ...base, transport: blocking, sleep: blockingSleep });
});
afterAll(async () => {
  await undici?.close();
  await blocking?.close();
  await sb?.close();
});

describe.each(['async', 'sync'] as const)('%s reports', (mode) => {
  it('fill rate over 30 days: total, per day and per item', async () => {
    const c = clients[mode];
    const rows = sb.data.daily_deliveries.filter((r) => r.daily_par !== null && r.daily_par > 0);
    const customerId = rows[0]!.customer_id;
    const from = addDays(TODAY, -29);
    const mine = sb.data.daily_deliveries.filter(
      (r) => r.customer_id === customerId && r.date >= from && r.date <= TODAY,
    );
    const usable = mine.filter((r) => r.daily_par !== null && r.daily_par > 0);
    const delivered = usable.reduce((s, r) => s + r.delivered_count, 0);
    const par = usable.reduce((s, r) => s + r.daily_par!, 0);
    const rep = await c.reports.fillRate({ customerId, from, to: TODAY });
    expect(rep.window).toEqual({ from, to: TODAY });
    expect(rep.delivered).toBe(delivered);
    expect(rep.par).toBe(par);
    expect(rep.fillRate).toBeCloseTo(delivered / par, 10);
    expect(rep.rows).toBe(mine.length);
    expect(new Set(rep.byDay.map((d) => d.date))).toEqual(new Set(mine.map((r) => r.date)));
    const item = rep.byItem[0]!;
    const itemRows = usable.filter((r) => r.item_id === item.itemId);
    expect(item.delivered).toBe(itemRows.reduce((s, r) => s + r.delivered_count, 0));
  });

  it('fill rate defaults to the last 7 org-local days', async () => {
    const rep = await clients[mode].reports.fillRate({ customerId: sb.data.customers[0]!.id });
    expect(rep.window).toEqual({ from: addDays(TODAY, -6), to: TODAY });
  });

  it('accounts receivable per customer and per currency', async () => {
    const rep = await clients[mode].reports.accountsReceivable();
    const open = sb.data.invoices.filter(
      (i) => (i.status === 'sent' || i.status === 'partially_paid') && i.balance_cents > 0,
    );
    expect(rep.openInvoices.map((i) => i.id).sort()).toEqual(open.map((i) => i.id).sort());
    for (const cur of new Set(open.map((i) => i.currency))) {
      const expected = open.filter((i) => i.currency === cur).reduce((s, i) => s + i.balance_cents, 0);
      expect(rep.totals.find((t) => t.currency === cur)!.balanceCents).toBe(expected);
    }
    for (const row of rep.customers) {
      const a = row.aging;
      expect(a.current + a.d1_30 + a.d31_60 + a.d61_plus).toBe(row.balanceCents);
    }
  });

  it('open shortfall signals grouped and ordered by severity', async () => {
    const groups = await clients[mode].reports.shortfallSignals();
    const expected = sb.data.signals.filter(
      (s) => s.kind === 'shortfall_streak' && (s.status === 'open' || s.status === 'acknowledged'),
    );
    expect(expected.some((s) => s.status === 'acknowledged')).toBe(true);
    expect(groups.flatMap((g) => g.signals.map((s) => s.id)).sort()).toEqual(expected.map((s) => s.id).sort());
    const rank = { high: 3, medium: 2, low: 1 } as const;
    for (let i = 1; i < groups.length; i++)
      expect(rank[groups[i - 1]!.severity]).toBeGreaterThanOrEqual(rank[groups[i]!.severity]);
    for (const g of groups) {
      for (const s of g.signals)
        expect([s.customer_id, s.department_id, s.item_id]).toEqual([g.customerId, g.departmentId, g.itemId]);
      expect(g.severity).toBe(g.signals[0]!.severity);
      expect(g.customerName).toBe(sb.data.customers.find((c) => c.id === g.customerId)!.name);
    }
  });

  it('finds a ticket by its display number, with the spec status label', async () => {
    const t = sb.data.tickets.find((x) => x.status === 'verified') ?? sb.data.tickets[0]!;
    const short = t.ticket_number.replace(/-0+(\d)/, '-$1').toLowerCase();
    const found = await clients[mode].reports.findTicket(short);
    expect(found.id).toBe(t.id);
    expect(t.status).toBe('verified');
    expect(found.statusLabel).toBe('Resolved');
    expect(found.status_label).toBe(t.status_label);
    await expect(Promise.resolve().then(() => clients[mode].reports.findTicket('TKT-19-99999'))).rejects.toBeInstanceOf(
      NotFoundError,
    );
    await expect(Promise.resolve().then(() => clients[mode].reports.findTicket('ticket 5'))).rejects.toBeInstanceOf(
      InvalidParamsError,
    );
  });

  it('resolves customers by id or name and explains unknown names', async () => {
    const c = clients[mode];
    const target = sb.data.customers[0]!;
    expect((await c.reports.resolveCustomer(target.id)).id).toBe(target.id);
    expect((await c.reports.resolveCustomer(`  ${target.name.toUpperCase()} `)).id).toBe(target.id);
    const typo = target.name.slice(0, 3) + (target.name[3] === 'x' ? 'y' : 'x') + target.name.slice(4);
    await expect(Promise.resolve().then(() => c.reports.resolveCustomer(typo))).rejects.toThrow(target.name);
    // A part of one name is that customer; a part of several names is ambiguous and lists them.
    const general = sb.data.customers.find((x) => x.name === 'Mercy General Hospital')!;
    expect((await c.reports.resolveCustomer('mercy general')).id).toBe(general.id);
    const mercies = sb.data.customers.filter((x) => x.name.startsWith('Mercy')).map((x) => x.name);
    expect(mercies.length).toBeGreaterThan(1);
    const ambiguous = Promise.resolve().then(() => c.reports.resolveCustomer('Mercy'));
    await expect(ambiguous).rejects.toBeInstanceOf(InvalidParamsError);
    for (const name of mercies)
      await expect(Promise.resolve().then(() => c.reports.resolveCustomer('Mercy'))).rejects.toThrow(name);
  });
});
