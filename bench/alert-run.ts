/**
 * Two alert checks in a process of their own: the bot's store and alert worker alone, bundled and run with plain
 * `node` as the built bot runs (bench/alerts.ts bundles this file), so its CPU time and resident memory are the
 * bot's. Nothing here may import build tools: the bundle runs whatever it holds.
 *
 * The child opens the store (a new embedded folder, or a PostgreSQL schema), sets alerts of every kind on the keys
 * (`ALERT_SHAPES`, in turn), and checks every key twice through the worker as the service runs it (its clients of
 * each key with the key's pacing and the process's shared answers, the check's requests counted as the service
 * counts them, posts to Slack through the bot's delivery): a first check, quiet, that records what is true; then
 * the sandbox's data is changed (a cart closed short, a signal raised, a ticket opened, an invoice overdue, a
 * purchase order spent) and, a poll interval later, a second check tells what became true. Around each check it
 * measures its CPU time, the requests the sandbox received and the requests each key's alerts need by their kinds'
 * declared reads (each listing's pages walked apart, before the check).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { clientsByKeyRef, keyRefOf } from '../base/key-ref.ts';
import { keyPacers } from '../base/pacing/key-pacers.ts';
import { openPg } from '../base/store/pg.ts';
import { openPglite } from '../base/store/pglite.ts';
import { ALERT_KIND_REGISTRY, type CheckResult } from '../chat/alerts/check.ts';
import type { ReadName } from '../chat/alerts/kind.ts';
import { ALERT_KINDS, type AlertKindName } from '../chat/alerts/kinds/index.ts';
import { alertReads, TICKET_DAYS } from '../chat/alerts/reads.ts';
import { countingCheckRequests, countingRequests } from '../chat/alerts/request-count.ts';
import { AlertStore } from '../chat/alerts/storage/store.ts';
import { DEFAULT_POLL_MS, startAlertWorker } from '../chat/alerts/worker.ts';
import { ManualClock, type Timers } from '../chat/digests/clock.ts';
import type { RunOutcome } from '../chat/digests/delivery/run-executor.ts';
import { silentLogger } from '../chat/digests/engine.ts';
import { BACKGROUND_BUDGET } from '../chat/linen.ts';
import { migrateServiceDatabase } from '../service/store.ts';
import { backgroundPacer } from '../shared/core/pacing.ts';
import { addDays, type CartCount, type Customer, type PurchaseOrder } from '../shared/index.ts';
import { createLinenClient, processAnswers } from '../shared/node.ts';
import { slackDeliveries } from '../slack-bot/digests/delivery.ts';
import { webClient } from '../test/support/digest-env.ts';
import { withPeakRss } from './process-memory.ts';

const TZ = 'America/Chicago';
/** Noon of the sandbox's pinned day, org-local: the first check's instant. */
export const ALERT_TODAY = '2026-11-05';
const FIRST_CHECK = `${ALERT_TODAY}T18:00:00Z`;
const YESTERDAY = addDays(ALERT_TODAY, -1);
/** The customer whose data the changes touch, and one they leave alone (neither a group nor in one). */
const CHANGED = 'Mercy General Hospital';
const UNCHANGED = 'Lakeshore Rehabilitation Centre';
/** Rows a page of a listing holds: what the client asks for (`BULK_LIMIT`). */
const PAGE = 200;

/** The customers an alert watches: every one, the one the changes touch, or one they leave alone. */
type Scope = 'every' | 'changed' | 'unchanged';

interface AlertShape {
  kind: AlertKindName;
  options: Record<string, unknown>;
  scope: Scope;
  /** Whether the changes make something newly true for it (one occurrence: one message). */
  fires: boolean;
}

/**
 * The alerts set on each key, in turn (key k takes ten from shape 7k on, so every key holds a different mix). What
 * the changes wake and what they do not: a threshold the change misses, a customer it does not touch, a kind of
 * signal it does not raise, an order already under the percentage at the first check, and par met (read once a day,
 * at the first check after the day is over: the second check, the same day, does not read it).
 */
export const ALERT_SHAPES: readonly AlertShape[] = [
  { kind: 'short', options: { minMissing: 1 }, scope: 'every', fires: true },
  { kind: 'short', options: { minMissing: 1 }, scope: 'changed', fires: true },
  { kind: 'short', options: { minMissing: 10_000 }, scope: 'every', fires: false },
  { kind: 'short', options: { minMissing: 1 }, scope: 'unchanged', fires: false },
  { kind: 'signal', options: {}, scope: 'every', fires: true },
  { kind: 'signal', options: { kind: 'shortfall', minSeverity: 'high' }, scope: 'changed', fires: true },
  { kind: 'signal', options: { kind: 'circulation_breach' }, scope: 'every', fires: false },
  { kind: 'ticket', options: {}, scope: 'every', fires: true },
  { kind: 'ticket', options: {}, scope: 'changed', fires: true },
  { kind: 'ticket', options: {}, scope: 'unchanged', fires: false },
  { kind: 'overdue', options: { days: 30 }, scope: 'every', fires: true },
  { kind: 'overdue', options: { days: 90 }, scope: 'changed', fires: false },
  { kind: 'budget', options: { percent: 40 }, scope: 'every', fires: true },
  { kind: 'budget', options: { percent: 60 }, scope: 'changed', fires: false },
  { kind: 'parmet', options: { belowPercent: 100 }, scope: 'every', fires: false },
  { kind: 'parmet', options: { belowPercent: 90 }, scope: 'unchanged', fires: false },
];

export interface AlertRunSpec {
  keys: string[];
  alertsPerKey: number;
  /** The sandbox API's base URL (with `/v1`); its controls are at the same origin. */
  sandboxUrl: string;
  slackUrl: string;
  /** A key that sees every customer and is none of `keys`: reads what the changes need and walks the listings apart. */
  referenceKey: string;
  /** PostgreSQL and the schema to keep the tables in; unset: a new embedded store folder. */
  databaseUrl?: string;
  schema?: string;
}

export interface CheckFigures {
  /** Requests each key's check sent, as the service counts them (`linen_alert_check_requests`). */
  requests: number[];
  /** What each key's alerts need (the same order): the pages of the distinct listings their kinds declare. */
  expected: number[];
  /** Of `expected`, the pages past the first of each listing. */
  extraPages: number;
  /** Every /v1 request the sandbox received from the start of the check to its end, deliveries' included. */
  sandboxRequests: number;
  /** Answered 429 (the API's limit, 120 a minute a key, reached): none when the pacing holds. */
  throttled: number;
  cpuMs: number;
  elapsedMs: number;
  ticks: number;
  posts: number;
  /** Occurrences the posts tell. */
  told: number;
  outcomes: string;
}

export interface AlertRunResult {
  alerts: number;
  byKind: Record<string, number>;
  checks: CheckFigures[];
  /** The channels of the alerts the changes wake (one an alert). */
  expectedChannels: string[];
  /** What the changes did, in words. */
  changes: string[];
  peakMb: number;
  beforeMb: number;
  heapPeakMb: number;
}

/** The sandbox's own controls and the API as the reference key reads it, without the bot's client. */
function sandboxApi(spec: AlertRunSpec) {
  const v1 = async (path: string, query: Record<string, string>): Promise<{ data: unknown[]; next: string | null }> => {
    const url = new URL(`${spec.sandboxUrl}${path}`);
    for (const [k, v] of Object.entries(query)) url.searchParams.set(k, v);
    const res = await fetch(url, { headers: { authorization: `Bearer ${spec.referenceKey}` } });
    if (!res.ok) throw new Error(`${path} answered ${res.status}`);
    const body = (await res.json()) as { data: unknown[]; pagination: { has_more: boolean; cursor: string | null } };
    return { data: body.data, next: body.pagination.has_more ? body.pagination.cursor : null };
  };
  return {
    /** Every row of a listing (rows as the API writes them), and the pages it takes at the client's page size. */
    async walk<Row = unknown>(
      path: string,
      query: Record<string, string> = {},
    ): Promise<{ rows: Row[]; pages: number }> {
      const rows: Row[] = [];
      let cursor: string | null = null;
      let pages = 0;
      do {
        const page = await v1(path, { ...query, limit: String(PAGE), ...(cursor ? { cursor } : {}) });
        rows.push(...(page.data as Row[]));
        pages++;
        cursor = page.next;
      } while (cursor);
      return { rows, pages };
    },
    async change(method: 'POST' | 'DELETE', path: string, body?: unknown): Promise<unknown> {
      const res = await fetch(new URL(`/__sandbox/changes${path}`, spec.sandboxUrl), {
        method,
        headers: { 'content-type': 'application/json' },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      if (!res.ok) throw new Error(`change ${path} answered ${res.status}: ${await res.text()}`);
      return ((await res.json()) as { data: unknown }).data;
    },
    async requests(method: 'GET' | 'DELETE'): Promise<number> {
      const res = await fetch(new URL('/__sandbox/requests', spec.sandboxUrl), { method });
      return ((await res.json()) as { data: { count: number } }).data.count;
    },
  };
}

/** The listings (path and query) one read of a kind sends for an alert, as chat/alerts/reads.ts sends them. */
function listingsOf(read: ReadName, customerIds: readonly string[]): [string, Record<string, string>][] {
  const ticketsFrom = addDays(ALERT_TODAY, -TICKET_DAYS);
  switch (read) {
    case 'customers':
      return [['/customers', {}]];
    case 'cartCounts':
      return [['/inventory/counts', { from: ALERT_TODAY, to: ALERT_TODAY }]];
    case 'signals':
      return [['/inventory/signals', {}]];
    case 'ticketsOf':
      return customerIds.map((id) => ['/quality-tickets', { customer_id: id, from: ticketsFrom }]);
    case 'openInvoices':
      return [
        ['/invoices', { status: 'sent' }],
        ['/invoices', { status: 'partially_paid' }],
      ];
    case 'activePurchaseOrders':
      return [['/purchase-orders', { status: 'active' }]];
    case 'deliveries':
      return [['/deliveries/daily', { from: YESTERDAY, to: YESTERDAY }]];
    case 'units':
    case 'departments':
      throw new Error(`no alert kind reads ${read} at a check`);
  }
}

/** The changes that wake the alerts marked `fires`, each on the changed customer's data. */
async function makeChanges(api: ReturnType<typeof sandboxApi>, changed: Customer) {
  const said: string[] = [];
  const counts = (await api.walk<CartCount>('/inventory/counts', { from: ALERT_TODAY, to: ALERT_TODAY })).rows;
  const pending = counts.find((c) => c.customer_id === changed.id && c.status === 'pending' && c.lines.length);
  if (!pending) throw new Error(`${CHANGED} has no pending count today to close short`);
  const line = pending.lines.reduce((a, z) => (z.required > a.required ? z : a));
  const shortBy = Math.ceil(line.required / 2);
  await api.change('POST', '/cart-counts/close-short', {
    cart_id: pending.cart_id,
    item_id: line.item_id,
    short_by: shortBy,
  });
  said.push(`a pending cart count closed ${shortBy} short`);
  await api.change('POST', '/signals', {
    kind: 'shortfall_streak',
    severity: 'high',
    customer_id: changed.id,
    department_id: changed.departments[0]?.id ?? null,
    summary: 'Bath towels under 80% of par for 3 straight days',
  });
  said.push('a high shortfall signal raised');
  await api.change('POST', '/quality-tickets', {
    customer_id: changed.id,
    kind: 'stain',
    subject: 'Stains on bath towels',
  });
  said.push('a ticket opened');
  await api.change('POST', '/invoices', {
    customer_id: changed.id,
    subtotal_cents: 125_000,
    issued_on: addDays(ALERT_TODAY, -75),
    due_on: addDays(ALERT_TODAY, -45),
  });
  said.push('an invoice 45 days overdue');
  const orders = (await api.walk<PurchaseOrder>('/purchase-orders', { status: 'active' })).rows;
  const po = orders.find((o) => o.customer_id === changed.id);
  if (!po || po.remaining_cents / po.total_cents < 0.4) throw new Error(`${CHANGED} has no active order 40% unspent`);
  const keep = Math.floor(po.total_cents * 0.3);
  await api.change('POST', `/purchase-orders/${po.id}/spend`, { amount_cents: po.remaining_cents - keep });
  said.push('a purchase order spent to 30% left');
  return said;
}

/** Timers that never fire: the benchmark ticks the worker itself, each check measured from its start to its end. */
const NO_TIMERS: Timers = { after: () => null, cancel: () => {} };

async function runAlerts(spec: AlertRunSpec): Promise<AlertRunResult> {
  const clock = new ManualClock(FIRST_CHECK);
  const api = sandboxApi(spec);
  const folder = spec.databaseUrl ? null : mkdtempSync(join(tmpdir(), 'linen-bench-alerts-'));
  const opened = spec.databaseUrl
    ? await openPg({ connectionString: spec.databaseUrl, ...(spec.schema ? { schema: spec.schema } : {}), max: 10 })
    : await openPglite(join(folder!, 'alerts'));
  const db = await migrateServiceDatabase(opened);
  const store = new AlertStore(db);
  let throttled = 0;
  // As the service builds a key's background client: its pacing (shared through PostgreSQL), the process's shared
  // answers, the background budgets, every request counted for the check under way.
  const pacers = keyPacers({ db });
  const observer = countingCheckRequests({
    request: ({ status }) => {
      if (status === '429') throttled++;
    },
  });
  const linenClientFor = clientsByKeyRef(spec.keys, (apiKey) =>
    createLinenClient({
      apiKey,
      baseUrl: spec.sandboxUrl,
      timeZone: TZ,
      userAgent: 'linen-connect-chat/0.1',
      sharedAnswers: processAnswers,
      observer,
      pacing: backgroundPacer(pacers.for(apiKey)),
      ...BACKGROUND_BUDGET,
      // Answers are kept, and requests paced, by the checks' own clock: the second check comes a poll later.
      now: () => clock.now().getTime(),
    }),
  );
  const worker = startAlertWorker({
    store,
    kinds: ALERT_KIND_REGISTRY,
    deliveries: slackDeliveries(webClient(spec.slackUrl)),
    linenClientFor,
    readsOf: (client, now) => alertReads(client, { now }),
    counting: countingRequests,
    pollMs: DEFAULT_POLL_MS,
    clock,
    timers: NO_TIMERS,
    logger: silentLogger,
  });
  try {
    const customers = (await api.walk<Customer>('/customers')).rows;
    const byName = (name: string) => {
      const c = customers.find((x) => x.name === name);
      if (!c) throw new Error(`the sandbox has no ${name}`);
      return c;
    };
    const changed = byName(CHANGED);
    const scopeIds: Record<Scope, string[]> = { every: [], changed: [changed.id], unchanged: [byName(UNCHANGED).id] };
    const kinds = new Map(ALERT_KINDS.map((k) => [k.name as string, k]));

    // The alerts, and what each key's need: its listings, each a set of pages.
    const listingsByKey: { listing: [string, Record<string, string>]; daily: boolean }[][] = [];
    const expectedChannels: string[] = [];
    const byKind: Record<string, number> = {};
    let n = 0;
    for (const [k, key] of spec.keys.entries()) {
      const listings: { listing: [string, Record<string, string>]; daily: boolean }[] = [];
      for (let j = 0; j < spec.alertsPerKey; j++) {
        const shape = ALERT_SHAPES[(k * 7 + j) % ALERT_SHAPES.length]!;
        const kind = kinds.get(shape.kind)!;
        const channelId = `C0ALERT${String(n++).padStart(4, '0')}`;
        await store.createAlert(
          {
            platform: 'slack',
            orgId: null,
            keyRef: keyRefOf(key),
            kind: shape.kind,
            options: shape.options,
            customerIds: scopeIds[shape.scope],
            timeZone: TZ,
            channelId,
            channelName: null,
            serviceUrl: null,
            direct: false,
            createdBy: 'U0BENCH',
            seen: null,
          },
          clock.now(),
          clock.now(),
        );
        byKind[shape.kind] = (byKind[shape.kind] ?? 0) + 1;
        if (shape.fires) expectedChannels.push(channelId);
        // A ticket alert reads the tickets of each customer it watches (every one: each the key sees).
        const watched = shape.scope === 'every' ? customers.map((c) => c.id) : scopeIds[shape.scope];
        for (const read of kind.reads)
          for (const listing of listingsOf(read, watched)) listings.push({ listing, daily: kind.cadence === 'daily' });
      }
      listingsByKey.push(listings);
    }

    let heapPeak = 0;
    const sampler = setInterval(() => {
      heapPeak = Math.max(heapPeak, process.memoryUsage().heapUsed);
    }, 10);

    /** One check of every key, ticked until nothing is due, with what it cost and what each key's alerts needed. */
    const check = async (first: boolean): Promise<CheckFigures> => {
      // The pages of each listing, walked apart before the check (a daily read is due at the first check only).
      const pagesOf = new Map<string, number>();
      const keyOf = ([path, query]: [string, Record<string, string>]) => `${path}?${new URLSearchParams(query)}`;
      const expected: number[] = [];
      let extraPages = 0;
      for (const listings of listingsByKey) {
        const distinct = new Map<string, [string, Record<string, string>]>();
        for (const { listing, daily } of listings) if (first || !daily) distinct.set(keyOf(listing), listing);
        let need = 0;
        for (const [id, listing] of distinct) {
          if (!pagesOf.has(id)) pagesOf.set(id, (await api.walk(...listing)).pages);
          need += pagesOf.get(id)!;
          extraPages += pagesOf.get(id)! - 1;
        }
        expected.push(need);
      }
      await api.requests('DELETE');
      throttled = 0;
      const results: CheckResult[] = [];
      const outcomes: Partial<Record<RunOutcome, number>> = {};
      let ticks = 0;
      const started = performance.now();
      const cpuBefore = process.cpuUsage();
      for (;;) {
        const tick = await worker.tick();
        ticks++;
        results.push(...tick.checks);
        for (const [o, v] of Object.entries(tick.outcomes))
          outcomes[o as RunOutcome] = (outcomes[o as RunOutcome] ?? 0) + v;
        if (tick.checks.length === 0 && Object.keys(tick.outcomes).length === 0) break;
      }
      const cpu = process.cpuUsage(cpuBefore);
      const elapsedMs = performance.now() - started;
      const sandboxRequests = await api.requests('GET');
      const requestsOf = new Map(results.map((r) => [r.keyRef, r.requests]));
      const unchecked = results.length !== spec.keys.length || results.some((r) => !r.committed);
      if (unchecked) throw new Error(`a check did not commit: ${results.find((r) => r.error)?.error ?? 'lost'}`);
      return {
        requests: spec.keys.map((key) => requestsOf.get(keyRefOf(key)) ?? 0),
        expected,
        extraPages,
        sandboxRequests,
        throttled,
        cpuMs: (cpu.user + cpu.system) / 1000,
        elapsedMs,
        ticks,
        posts: results.reduce((t, r) => t + r.posts.length, 0),
        told: results.reduce((t, r) => t + r.posts.reduce((u, p) => u + p.told.length, 0), 0),
        outcomes:
          Object.entries(outcomes)
            .map(([k, v]) => `${v} ${k}`)
            .join(', ') || 'nothing posted',
      };
    };

    try {
      const {
        value: [quiet, changes, told],
        peakMb,
        beforeMb,
      } = await withPeakRss(async () => {
        const quietCheck = await check(true);
        const said = await makeChanges(api, changed);
        // The next check of every key is due a poll after the first.
        clock.advance(DEFAULT_POLL_MS + 1000);
        return [quietCheck, said, await check(false)] as const;
      });
      return {
        alerts: n,
        byKind,
        checks: [quiet, told],
        expectedChannels,
        changes,
        peakMb,
        beforeMb,
        heapPeakMb: heapPeak / 2 ** 20,
      };
    } finally {
      clearInterval(sampler);
    }
  } finally {
    await worker.stop();
    await linenClientFor.close();
    await opened.close();
    if (folder) rmSync(folder, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href && process.send) {
  const spec = JSON.parse(process.argv[2] ?? '{}') as AlertRunSpec;
  const result = await runAlerts(spec).catch((e: unknown) => ({ error: String((e as Error)?.stack ?? e) }));
  process.send(result, undefined, {}, () => process.exit(0));
}
