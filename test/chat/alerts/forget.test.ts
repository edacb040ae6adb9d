/** An organization that removes the app takes its alerts with it (their posts too); another's stay. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AlertStore } from '../../../chat/alerts/storage/store.ts';
import type { NewAlert } from '../../../chat/alerts/storage/types.ts';
import { forgetWorkspace } from '../../../chat/connections/forget.ts';
import { drivers, openTestDb, type TestDb } from '../../support/digest-db.ts';

const NOW = new Date('2026-11-20T18:00:00Z');

const alertOf = (orgId: string): NewAlert => ({
  platform: 'slack',
  orgId,
  keyRef: `key_${orgId}`,
  kind: 'short',
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

describe.each(drivers)('forgetting an organization on %s', (driver) => {
  let db: TestDb;
  beforeEach(async () => {
    db = await openTestDb(driver);
    await db.executor.query('TRUNCATE alerts, alert_checks CASCADE');
  });
  afterEach(() => db.close());

  it("deletes its alerts and their posts, and keeps another organization's", async () => {
    const alerts = new AlertStore(db.executor);
    const gone = await alerts.createAlert(alertOf('T0GONE'), NOW, NOW);
    const kept = await alerts.createAlert(alertOf('T0KEPT'), NOW, NOW);
    await alerts.addTestPost(gone.id, [], NOW);
    await alerts.addTestPost(kept.id, [], NOW);
    expect((await forgetWorkspace(db.executor, 'T0GONE')).alerts).toBe(1);
    expect((await alerts.listAlerts()).map((a) => a.id)).toEqual([kept.id]);
    expect((await alerts.listPosts()).map((p) => p.alertId)).toEqual([kept.id]);
  });
});
