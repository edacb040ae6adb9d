/**
 * The past does not change from one day to the next: data seeded for two different days agrees on every record
 * of the days both show. A record keeps its id, display number and facts (customer, dates, amounts, lines); only
 * what is "as of today" moves on (statuses, balances, today's partial progress). And the records of a day shown
 * by both are the same set.
 */
import { describe, expect, it } from 'vitest';
import type { SandboxData } from '../../sandbox/model.ts';
import { generateSandboxData } from '../../sandbox/seed/index.ts';

const TZ = 'America/Chicago';
const seed = (today: string): SandboxData => generateSandboxData({ today, timeZone: TZ, seed: 'linen' });
const localDay = (iso: string): string =>
  new Intl.DateTimeFormat('en-CA', { timeZone: TZ, year: 'numeric', month: '2-digit', day: '2-digit' }).format(
    new Date(iso),
  );
const addDays = (day: string, n: number): string =>
  new Date(Date.parse(`${day}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);

interface Facts {
  id: string;
  /** The day that dates the record, or null for records the window does not date. */
  day: string | null;
  facts: unknown;
  /** Facts that are final once reached (compared when both seeds have them). */
  final?: unknown;
}

/** The facts of each kind of record that never change once it exists, keyed by id. */
const FACTS: Record<string, (d: SandboxData, invoicesInBoth: ReadonlySet<string>) => Facts[]> = {
  manifests: (d: SandboxData) =>
    d.manifests.map((m) => ({
      id: m.id,
      day: localDay(m.created_at),
      facts: {
        number: m.manifest_number,
        type: m.type,
        customer: m.customer_id,
        department: m.department_id,
        created: m.created_at,
        parent: m.parent_manifest_id,
      },
      // Once delivered, a manifest is final.
      final: m.delivered_at && {
        at: m.delivered_at,
        soil: m.soil_weight_lb,
        clean: m.clean_weight_lb,
        amount: m.amount_cents,
        bins: m.bins,
        signature: m.signature,
      },
    })),
  rewash_batches: (d: SandboxData) =>
    d.rewash_batches.map((b) => ({
      id: b.id,
      day: localDay(b.discovered_at),
      facts: {
        parent: b.parent_manifest,
        customer: b.customer_id,
        held: [b.held_weight_lb, b.soil_rewash_lb, b.error_rewash_lb],
        discovered: b.discovered_at,
      },
    })),
  invoices: (d: SandboxData) =>
    d.invoices.map((i) => ({
      id: i.id,
      day: localDay(i.issued_at),
      facts: {
        number: i.invoice_number,
        customer: i.customer_id,
        department: i.department_id,
        issued: i.issued_at,
        due: i.due_at,
        amounts: [i.subtotal_cents, i.surcharges_cents, i.tax_cents, i.total_cents],
        currency: i.currency,
      },
    })),
  // A group's batch at the start of the window lists only the invoices still shown.
  payments: (d: SandboxData, both: ReadonlySet<string>) =>
    d.payments.map((p) => ({
      id: p.id,
      day: localDay(p.received_at),
      facts: {
        customer: p.customer_id,
        kind: p.kind,
        received: p.received_at,
        allocations: p.allocations.filter((a) => both.has(a.invoice_id)),
      },
    })),
  orders: (d: SandboxData) =>
    d.orders.map((o) => ({
      id: o.id,
      day: null,
      facts: {
        number: o.order_number,
        customer: o.customer_id,
        lines: o.lines,
        subtotal: o.subtotal_cents,
        requested: o.placed_at && o.requested_delivery_date,
        placed: o.placed_at,
        wearer: o.wearer_name,
      },
    })),
  purchase_orders: (d: SandboxData) =>
    d.purchase_orders.map((p) => ({
      id: p.id,
      day: null,
      facts: { number: p.po_number, customer: p.customer_id, total: p.total_cents, term: [p.started_at, p.expires_at] },
    })),
  tickets: (d: SandboxData) =>
    d.tickets.map((t) => ({
      id: t.id,
      day: localDay(t.created_at),
      facts: {
        number: t.ticket_number,
        customer: t.customer_id,
        kind: t.kind,
        subject: t.subject,
        created: t.created_at,
      },
    })),
  ratings: (d: SandboxData) =>
    d.ratings.map((r) => ({
      id: r.id,
      day: localDay(r.created_at),
      facts: { manifest: r.manifest_id, number: r.manifest_number, by: r.customer_id, quality: r.quality_rating },
    })),
  cart_counts: (d: SandboxData) =>
    d.cart_counts.map((c) => ({ id: c.id, day: c.date, facts: { cart: c.cart_id, date: c.date } })),
  customers: (d: SandboxData) => d.customers.map((c) => ({ id: c.id, day: null, facts: c })),
};

/**
 * The first day whose records both seeds show in full, past the later window's start: invoices of a month
 * billed before the window are not shown, nor are the payments of invoices before it; ratings cover 90 days,
 * cart counts 60.
 */
function overlapStart(kind: string, later: SandboxData): string {
  const margin: Record<string, number> = { invoices: 32, payments: 150 };
  if (kind === 'ratings') return addDays(later.seeded.today, -89);
  if (kind === 'cart_counts') return addDays(later.seeded.today, -59);
  return addDays(later.seeded.first_day, margin[kind] ?? 3);
}

/** What differs between two seeds of the data over the records and days both show. */
function differences(earlier: SandboxData, later: SandboxData): string[] {
  const problems: string[] = [];
  // Days fully past in both: from the later window's start (and a margin) to the day before the earlier today.
  const to = addDays(earlier.seeded.today, -1);
  const laterInvoices = new Set(later.invoices.map((i) => i.id));
  const both = new Set(earlier.invoices.map((i) => i.id).filter((id) => laterInvoices.has(id)));
  for (const [kind, factsOf] of Object.entries(FACTS)) {
    const from = overlapStart(kind, later);
    const a = factsOf(earlier, both);
    const b = factsOf(later, both);
    const byId = new Map(b.map((r) => [r.id, r]));
    let shared = 0;
    for (const r of a) {
      const other = byId.get(r.id);
      if (!other) continue;
      shared++;
      const changed =
        JSON.stringify(other.facts) !== JSON.stringify(r.facts) ||
        (r.final && other.final && JSON.stringify(other.final) !== JSON.stringify(r.final));
      if (changed && problems.length < 20)
        problems.push(
          `${kind} ${r.id}: ${JSON.stringify(r).slice(0, 200)} became ${JSON.stringify(other).slice(0, 200)}`,
        );
    }
    if (shared === 0 && a.length > 0) problems.push(`${kind}: no record in common`);
    const inOverlap = (rows: readonly { id: string; day: string | null }[]) =>
      rows
        .filter((r) => r.day !== null && r.day >= from && r.day <= to)
        .map((r) => r.id)
        .sort();
    if (JSON.stringify(inOverlap(a)) !== JSON.stringify(inOverlap(b)))
      problems.push(
        `${kind}: the records of ${from}..${to} differ (${inOverlap(a).length} and ${inOverlap(b).length})`,
      );
  }
  // Daily deliveries before the earlier today are the same rows.
  const from = overlapStart('daily_deliveries', later);
  const rows = (d: SandboxData) => JSON.stringify(d.daily_deliveries.filter((r) => r.date >= from && r.date <= to));
  if (rows(earlier) !== rows(later)) problems.push('daily deliveries of the shared days differ');
  return problems;
}

describe('the seeded past is the same whichever day it is seeded for', () => {
  const today = seed('2026-11-05');

  it.each(['2026-11-06', '2026-12-05'])('from 2026-11-05 to %s', (later) => {
    expect(differences(today, seed(later))).toEqual([]);
  });

  it('across a new year', () => {
    expect(differences(seed('2025-12-31'), seed('2026-01-01'))).toEqual([]);
  });

  it('keeps the numbers the documentation quotes', () => {
    for (const day of ['2026-11-05', '2026-11-20', '2027-01-10']) {
      const d = day === '2026-11-05' ? today : seed(day);
      const manifest = d.manifests.find((m) => m.manifest_number === 'MAN-26-027570');
      expect(manifest?.status).toBe('delivered');
      expect(d.tickets.find((t) => t.ticket_number === 'TKT-26-00417')?.subject).toBe(
        'Makeup stains on pillowcases (Housekeeping)',
      );
      expect(d.orders.some((o) => o.order_number === 'DS-26-01622')).toBe(true);
    }
  });
});
