/**
 * One check of a key, on its own: a key no longer configured stops the key's alerts (each creator told by the
 * worker), a kind this version does not know is left alone, and what is recorded is only what this worker still
 * holds the key's check for.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type AlertKinds, checkKey } from '../../../chat/alerts/check.ts';
import { ALERT_KINDS } from '../../../chat/alerts/kinds/index.ts';
import { AlertStore } from '../../../chat/alerts/storage/store.ts';
import type { NewAlert } from '../../../chat/alerts/storage/types.ts';
import { ConfigurationError } from '../../../shared/errors.ts';
import { drivers, openTestDb, type TestDb } from '../../support/digest-db.ts';

const NOW = new Date('2026-11-20T18:00:00Z');
const KINDS: AlertKinds = { byName: (name) => ALERT_KINDS.find((k) => k.name === name) };

const alertOf = (kind: string): NewAlert => ({
  platform: 'slack',
  orgId: 'T0ONE',
  keyRef: 'key_gone',
  kind,
  options: { minMissing: 1 },
  customerIds: [],
  timeZone: 'America/Chicago',
  channelId: 'C0OPS',
  channelName: null,
  serviceUrl: null,
  direct: false,
  createdBy: 'U0A',
  seen: [],
});

describe.each(drivers)('a check of one key on %s', (driver) => {
  let db: TestDb;
  let store: AlertStore;
  beforeEach(async () => {
    db = await openTestDb(driver);
    await db.executor.query('TRUNCATE alerts, alert_checks CASCADE');
    store = new AlertStore(db.executor);
  });
  afterEach(() => db.close());

  const claim = async () => (await store.claimChecks('w-1', NOW, 60_000, 300_000, 10))[0]!;

  it('stops the alerts of a key that is no longer configured, saying why, and releases the check', async () => {
    const short = await store.createAlert(alertOf('short'), NOW, NOW);
    const result = await checkKey(await claim(), {
      store,
      kinds: KINDS,
      workerId: 'w-1',
      now: () => NOW,
      readsFor: async () => {
        throw new ConfigurationError('no configured API key matches this key reference', 'gone');
      },
    });
    expect(result.stopped.map((s) => [s.alert.id, s.code])).toEqual([[short.id, 'linen_key_missing']]);
    expect(result.stopped[0]!.reason).toMatch(/no longer configured; remove it and set it again/);
    expect(result.committed).toBe(true);
    expect((await store.listChecks())[0]).toMatchObject({ claimedBy: null, lastRequests: 0 });
  });

  it('leaves an alert of a kind it does not know as it was, for the replicas that know it', async () => {
    const future = await store.createAlert({ ...alertOf('future_kind'), seen: ['x:1'] }, NOW, NOW);
    const result = await checkKey(await claim(), {
      store,
      kinds: KINDS,
      workerId: 'w-1',
      now: () => NOW,
      // No listing is read for a kind nobody here knows.
      readsFor: async () => ({}) as never,
    });
    expect(result.stopped).toEqual([]);
    expect(await store.getAlert(future.id)).toMatchObject({ status: 'active', seen: ['x:1'] });
  });

  it('records nothing once another worker holds the check', async () => {
    const short = await store.createAlert({ ...alertOf('short'), seen: null }, NOW, NOW);
    const check = await claim();
    // The lease ran out and another replica took the key over.
    await db.executor.query(`UPDATE alert_checks SET claimed_by = 'w-2'`);
    const result = await checkKey(check, {
      store,
      kinds: KINDS,
      workerId: 'w-1',
      now: () => NOW,
      readsFor: async () => ({ cartCounts: async () => [] }) as never,
    });
    expect(result.committed).toBe(false);
    expect((await store.getAlert(short.id))!.seen).toBeNull();
  });
});
