/**
 * One tick of the digest worker: materialize due runs, claim some, fetch each API key's signals once and
 * share them across that key's subscriptions, build every digest and deliver it through the per-channel
 * pacer (channels in parallel).
 */
import {
  addDays,
  type Customer,
  type DailyDeliveryRow,
  type InventorySignal,
  type LinenClient,
} from '../../shared/index.ts';
import { buildDigest, type Digest } from './content.ts';
import type { DigestEngine, RunOutcome } from './engine.ts';
import type { ChannelPacer, SlackClient } from './slack.ts';
import type { DigestStore, ShownSignal, Subscription } from './storage/types.ts';
import { dayInZoneOf, titleOf } from './time.ts';

export interface TickDeps {
  engine: DigestEngine;
  slack: SlackClient;
  /** The client for a subscription's key reference (see `clientsByKeyRef`). */
  linenClientFor: (keyRef: string) => LinenClient;
  pacer: ChannelPacer;
  /** Runs claimed per tick (default 500). */
  claimLimit?: number;
}

export interface TickResult {
  materialized: number;
  skippedAtMaterialize: number;
  claimed: number;
  /** Signal list walks made this tick: one per API key with due runs. */
  signalFetches: number;
  outcomes: Partial<Record<RunOutcome, number>>;
}

export interface KeySnapshot {
  signals: Promise<InventorySignal[]>;
  customers: Promise<Customer[]>;
  deliveries: Map<string, Promise<DailyDeliveryRow[]>>;
}

/** One key's data for this tick: signals and customers fetched once, deliveries once per day asked. */
export function keySnapshot(
  client: LinenClient,
): KeySnapshot & { deliveriesOn(day: string): Promise<DailyDeliveryRow[]> } {
  const snap: KeySnapshot = {
    // Without a status the API lists open and acknowledged signals; the digest keeps its kinds.
    signals: client.inventory.signals().all(),
    customers: client.customers.list().all(),
    deliveries: new Map(),
  };
  for (const p of [snap.signals, snap.customers]) p.catch(() => {}); // awaited later, per run
  return {
    ...snap,
    deliveriesOn(day: string) {
      let p = snap.deliveries.get(day);
      if (!p) {
        p = client.deliveries.daily({ from: day, to: day }).all();
        p.catch(() => {});
        snap.deliveries.set(day, p);
      }
      return p;
    },
  };
}

/** Builds a subscription's digest for an instant from a key snapshot and what its previous digest showed. */
export async function digestFor(
  store: Pick<DigestStore, 'previousDigest'>,
  sub: Subscription,
  at: Date,
  snap: ReturnType<typeof keySnapshot>,
  previous?: Promise<{ shown: ShownSignal[] } | null>,
): Promise<Digest> {
  const yesterday = addDays(dayInZoneOf(at, sub.timeZone), -1);
  const [signals, customers, deliveries, prev] = await Promise.all([
    snap.signals,
    snap.customers,
    snap.deliveriesOn(yesterday),
    previous ?? store.previousDigest(sub.id, at),
  ]);
  return buildDigest({
    subscription: sub,
    signals,
    customers,
    deliveries,
    yesterday,
    previous: prev ? prev.shown : null,
    title: titleOf(at, sub.timeZone),
  });
}

export async function runDigestTick(deps: TickDeps): Promise<TickResult> {
  const { engine } = deps;
  const mat = await engine.materialize();
  const runs = await engine.claim(deps.claimLimit ?? 500);
  const result: TickResult = {
    materialized: mat.created,
    skippedAtMaterialize: mat.skipped,
    claimed: runs.length,
    signalFetches: 0,
    outcomes: {},
  };
  if (!runs.length) return result;

  // Set-based reads for the whole batch: the subscriptions, and what each one's previous digest showed.
  const subs = await engine.store.getSubscriptions([...new Set(runs.map((r) => r.subscriptionId))]);
  const previous = engine.store.previousDigests(
    runs.map((r) => ({ subscriptionId: r.subscriptionId, before: r.scheduledFor })),
  );
  previous.catch(() => {}); // awaited per run (a failure there is that run's transient failure)
  const snapshots = new Map<string, ReturnType<typeof keySnapshot>>();
  const snapshotOf = (keyRef: string) => {
    let s = snapshots.get(keyRef);
    if (!s) {
      s = keySnapshot(deps.linenClientFor(keyRef));
      snapshots.set(keyRef, s);
      result.signalFetches++;
    }
    return s;
  };

  await Promise.all(
    runs.map(async (run, i) => {
      const sub = subs.get(run.subscriptionId) ?? null;
      const outcome = await engine.execute(
        run,
        sub,
        () =>
          digestFor(
            engine.store,
            sub!,
            run.scheduledFor,
            snapshotOf(sub!.keyRef),
            previous.then((p) => p[i] ?? null),
          ),
        deps.slack,
        deps.pacer,
      );
      result.outcomes[outcome] = (result.outcomes[outcome] ?? 0) + 1;
    }),
  );
  return result;
}
