/**
 * One tick of the digest worker: materialize due runs, claim some, fetch each API key's data once (what the due
 * digests need of it) and share it across that key's subscriptions, build every digest by its kind (the registry's:
 * `kinds/`) and deliver it through the per-channel pacer (channels in parallel).
 */
import {
  addDays,
  type Customer,
  type DailyDeliveryRow,
  type InventorySignal,
  type Invoice,
  type LinenClient,
  type PurchaseOrder,
  type QualityTicket,
} from '../../shared/index.ts';
import type { ChannelPacer } from './delivery/channel-pacer.ts';
import type { DeliveryFor, DigestDelivery } from './delivery/delivery.ts';
import type { Digest } from './digest.ts';
import type { DigestEngine, RunOutcome } from './engine.ts';
import { DIGEST_KINDS, type DigestKinds, UnknownDigestKindError } from './kinds/index.ts';
import { readListings } from './kinds/listings.ts';
import type { RunsInFlight } from './runs-in-flight.ts';
import { buildIdentity, SharedBuilds } from './shared-builds.ts';
import type { DigestRun, DigestStore, ShownRecord, Subscription } from './storage/types.ts';
import { dayInZoneOf, titleOf } from './time.ts';

export interface TickDeps {
  engine: DigestEngine;
  /** Each subscription's delivery, by its platform and workspace or tenant (resolved once per tick for each). */
  deliveries: DeliveryFor;
  /** The client for a subscription's key reference (see `clientsByKeyRef`), or a stored key being opened. */
  linenClientFor: (keyRef: string) => LinenClient | Promise<LinenClient>;
  pacer: ChannelPacer;
  /** Runs claimed per tick (default DEFAULT_CLAIM_LIMIT). */
  claimLimit?: number;
  /** The worker's runs under way across its ticks (default: none tracked). */
  inFlight?: RunsInFlight;
  /**
   * Each key's data, by key reference, carried from the previous tick: the worker passes the same map to the ticks
   * that work through one backlog of due runs (each claiming a full batch), so a key's data is fetched once for
   * all of them, not once a tick. Default: a map for this tick alone.
   */
  keySnapshots?: Map<string, KeySnapshot>;
  /**
   * The digests built for that backlog, shared by the runs that ask the same of the same key (`shared-builds.ts`),
   * carried across its ticks with the key snapshots. Default: shared within this tick alone.
   */
  builds?: SharedBuilds;
  /** The digest kinds runs are built by (default: the service's). */
  kinds?: DigestKinds;
}

export const DEFAULT_CLAIM_LIMIT = 500;

export interface TickResult {
  materialized: number;
  skippedAtMaterialize: number;
  claimed: number;
  /** Signal list walks made this tick: one per API key whose due digests read signals, unless an earlier tick did. */
  signalFetches: number;
  outcomes: Partial<Record<RunOutcome, number>>;
}

/**
 * One key's data for this tick, each listing fetched once on first use and shared by the key's digests: signals
 * and customers, deliveries per day, open invoices, active purchase orders, and tickets per customer.
 */
export interface KeySnapshot {
  signals(): Promise<InventorySignal[]>;
  customers(): Promise<Customer[]>;
  /** Daily delivery rows of the org-local days `from` to `to` (one listing: a week is well within 92 days). */
  deliveriesBetween(from: string, to: string): Promise<DailyDeliveryRow[]>;
  openInvoices(): Promise<Invoice[]>;
  activePurchaseOrders(): Promise<PurchaseOrder[]>;
  ticketsOf(customerId: string): Promise<QualityTicket[]>;
}

/** `source` may be a client still being resolved (a stored key is opened first); each listing waits for it. */
export function keySnapshot(
  source: LinenClient | Promise<LinenClient>,
  onSignalFetch: () => void = () => {},
): KeySnapshot {
  const ready = Promise.resolve(source);
  const memo = new Map<string, Promise<unknown>>();
  const once = <T>(key: string, fetch: (client: LinenClient) => Promise<T>): Promise<T> => {
    let p = memo.get(key) as Promise<T> | undefined;
    if (!p) {
      p = ready.then(fetch);
      p.catch(() => {}); // awaited per run (a failure there is that run's transient failure)
      memo.set(key, p);
    }
    return p;
  };
  return {
    signals: () =>
      once('signals', (client) => {
        onSignalFetch();
        // Without a status the API lists open and acknowledged signals; the digest keeps its kinds.
        return client.inventory.signals().all();
      }),
    customers: () => once('customers', (client) => client.customers.list().all()),
    deliveriesBetween: (from, to) =>
      once(`deliveries ${from} ${to}`, (client) => client.deliveries.daily({ from, to }).all()),
    openInvoices: () =>
      once('invoices', async (client) => {
        const [sent, partial] = await Promise.all([
          client.invoices.list({ status: 'sent' }).all(),
          client.invoices.list({ status: 'partially_paid' }).all(),
        ]);
        return [...sent, ...partial];
      }),
    activePurchaseOrders: () =>
      once('purchase orders', (client) => client.purchaseOrders.list({ status: 'active' }).all()),
    ticketsOf: (customerId) =>
      once(`tickets ${customerId}`, (client) => client.qualityTickets.list({ customerId }).all()),
  };
}

/**
 * Builds a subscription's digest for an instant by its kind, from a key snapshot (the listings the kind reads) and
 * what its previous digest showed (`previous`: already being read for a batch; default read here). A kind the
 * registry does not know is an UnknownDigestKindError: its run ends failed, and no other kind is built instead.
 */
export async function digestFor(
  store: Pick<DigestStore, 'previousDigest'>,
  sub: Subscription,
  at: Date,
  snap: KeySnapshot,
  options: {
    previous?: Promise<{ run?: DigestRun; shown: ShownRecord[] } | null> | undefined;
    kinds?: DigestKinds | undefined;
    /** Builds shared with the other runs of a backlog that ask the same (default: built for this run alone). */
    builds?: SharedBuilds | undefined;
  } = {},
): Promise<Digest> {
  const kinds = options.kinds ?? DIGEST_KINDS;
  const kind = kinds.get(sub.kind);
  if (!kind) throw new UnknownDigestKindError(sub.kind, kinds.names);
  const { builds } = options;
  if (builds) {
    const prev = await (options.previous ?? store.previousDigest(sub.id, at));
    return builds.get(buildIdentity(sub, at, prev), () =>
      digestFor(store, sub, at, snap, { previous: Promise.resolve(prev), kinds }),
    );
  }
  const today = dayInZoneOf(at, sub.timeZone);
  const yesterday = addDays(today, -1);
  const customers = snap.customers();
  const [list, read, prev] = await Promise.all([
    customers,
    readListings(kind.reads, snap, { subscription: sub, yesterday, customers }),
    options.previous ?? store.previousDigest(sub.id, at),
  ]);
  return kind.build({
    subscription: sub,
    customers: list,
    today,
    yesterday,
    title: titleOf(at, sub.timeZone),
    // A subscription's runs all hold its own kind's records.
    previous: prev ? prev.shown : null,
    previousAt: prev?.run?.scheduledFor ?? null,
    read,
  });
}

/**
 * The delivery of a subscription's workspace or tenant, looked up once per tick: its runs share it, and a rotating
 * token is refreshed by one lookup, not by each run at once.
 */
function deliveriesOfTick(deliveries: DeliveryFor): (sub: Subscription) => Promise<DigestDelivery | null> {
  const byPlace = new Map<string, Promise<DigestDelivery | null>>();
  return (sub) => {
    const place = `${sub.platform}\u0000${sub.orgId ?? ''}\u0000${sub.serviceUrl ?? ''}`;
    let p = byPlace.get(place);
    if (!p) {
      p = deliveries(sub);
      byPlace.set(place, p);
    }
    return p;
  };
}

/** A tick whose runs are claimed: what it claimed, and its delivery under way. */
export interface ClaimedTick {
  /** Runs claimed and handed to delivery by this tick. */
  claimed: number;
  /** Settles once every claimed run has reached its end (or has been given back for a later attempt). */
  delivered: Promise<TickResult>;
}

/** A whole tick: claims, then waits for every claimed run's delivery. */
export async function runDigestTick(deps: TickDeps): Promise<TickResult> {
  return (await claimDigestTick(deps)).delivered;
}

/**
 * Materializes and claims due runs, then returns while their delivery goes on: the caller may claim the next
 * batch of a backlog meanwhile (the per-channel pacer keeps each channel's pace across batches).
 */
export async function claimDigestTick(deps: TickDeps): Promise<ClaimedTick> {
  const { engine } = deps;
  const mat = await engine.materialize();
  const claimed = await engine.claim(deps.claimLimit ?? DEFAULT_CLAIM_LIMIT, deps.pacer.intervalMs);
  // A run this worker is still delivering (claimed again once its lease ran out) is left to that delivery.
  const runs = deps.inFlight ? claimed.filter((r) => !deps.inFlight!.has(r.id)) : claimed;
  for (const run of runs) deps.inFlight?.add(run.id);
  const result: TickResult = {
    materialized: mat.created,
    skippedAtMaterialize: mat.skipped,
    claimed: runs.length,
    signalFetches: 0,
    outcomes: {},
  };
  return { claimed: runs.length, delivered: runs.length ? deliver(deps, runs, result) : Promise.resolve(result) };
}

async function deliver(deps: TickDeps, runs: DigestRun[], result: TickResult): Promise<TickResult> {
  const { engine } = deps;
  const snapshots = deps.keySnapshots ?? new Map<string, KeySnapshot>();
  const snapshotOf = (keyRef: string) => {
    let s = snapshots.get(keyRef);
    if (!s) {
      s = keySnapshot(deps.linenClientFor(keyRef), () => result.signalFetches++);
      snapshots.set(keyRef, s);
    }
    return s;
  };
  const builds = deps.builds ?? new SharedBuilds();
  const deliveryOf = deliveriesOfTick(deps.deliveries);
  try {
    // Set-based reads for the whole batch: the subscriptions, and what each one's previous digest showed.
    const previous = engine.store.previousDigests(
      runs.map((r) => ({ subscriptionId: r.subscriptionId, before: r.scheduledFor })),
    );
    previous.catch(() => {}); // awaited per run (a failure there is that run's transient failure)
    const subs = await engine.store.getSubscriptions([...new Set(runs.map((r) => r.subscriptionId))]);
    await Promise.all(
      runs.map(async (run, i) => {
        const sub = subs.get(run.subscriptionId) ?? null;
        try {
          const outcome = await engine.execute(
            run,
            sub,
            () =>
              digestFor(engine.store, sub!, run.scheduledFor, snapshotOf(sub!.keyRef), {
                previous: previous.then((p) => p[i] ?? null),
                kinds: deps.kinds,
                builds,
              }),
            () => deliveryOf(sub!),
            deps.pacer,
          );
          result.outcomes[outcome] = (result.outcomes[outcome] ?? 0) + 1;
        } finally {
          deps.inFlight?.delete(run.id);
        }
      }),
    );
    return result;
  } finally {
    for (const run of runs) deps.inFlight?.delete(run.id);
  }
}
