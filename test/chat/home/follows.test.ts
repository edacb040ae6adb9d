/**
 * What each person follows on their home, in the service's database (PGlite, and PostgreSQL with
 * TEST_DATABASE_URL): kept per platform, organization and person, replaced as a whole, places of customers no longer
 * followed dropped, and forgotten with the workspace or tenant.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { forgetWorkspace } from '../../../chat/connections/forget.ts';
import { EVERY_CUSTOMER, FollowStore } from '../../../chat/home/follows.ts';
import { drivers, openTestDb, type TestDb } from '../../support/digest-db.ts';

const NOW = new Date('2026-11-20T18:00:00Z');

describe.each(drivers)('home follows on %s', (driver) => {
  let db: TestDb;
  let store: FollowStore;
  beforeEach(async () => {
    db = await openTestDb(driver);
    await db.executor.query('DELETE FROM home_follows');
    store = new FollowStore(db.executor);
  });
  afterEach(() => db.close());

  it('follows every customer until the person chooses', async () => {
    expect(await store.get({ platform: 'slack', orgId: 'T0AAA', userId: 'U0A' })).toEqual(EVERY_CUSTOMER);
  });

  it('keeps each person’s choice apart by platform, organization and person', async () => {
    const a = { platform: 'slack' as const, orgId: 'T0AAA', userId: 'U0A' };
    await store.set(a, { customerIds: ['c1', 'c2'], places: [] }, NOW);
    await store.set({ ...a, platform: 'teams' }, { customerIds: ['c3'], places: [] }, NOW);
    await store.set({ ...a, orgId: 'T0BBB' }, { customerIds: ['c4'], places: [] }, NOW);
    await store.set({ ...a, orgId: null }, { customerIds: ['c5'], places: [] }, NOW);
    expect((await store.get(a)).customerIds).toEqual(['c1', 'c2']);
    expect((await store.get({ ...a, platform: 'teams' })).customerIds).toEqual(['c3']);
    expect((await store.get({ ...a, orgId: 'T0BBB' })).customerIds).toEqual(['c4']);
    expect((await store.get({ ...a, orgId: undefined })).customerIds).toEqual(['c5']);
    expect(await store.get({ ...a, userId: 'U0B' })).toEqual(EVERY_CUSTOMER);
  });

  it('replaces the choice as a whole, dropping the places of customers no longer followed', async () => {
    const a = { platform: 'teams' as const, orgId: 'tenant-1', userId: '29:1abc' };
    const icu = { kind: 'department' as const, id: 'd1', customerId: 'c1' };
    const lobby = { kind: 'unit' as const, id: 'u9', customerId: 'c2' };
    await store.set(a, { customerIds: ['c1', 'c2'], places: [icu, lobby] }, NOW);
    expect(await store.get(a)).toEqual({ customerIds: ['c1', 'c2'], places: [icu, lobby] });
    expect(await store.set(a, { customerIds: ['c1'], places: [icu, lobby] }, NOW)).toEqual({
      customerIds: ['c1'],
      places: [icu],
    });
    expect(await store.get(a)).toEqual({ customerIds: ['c1'], places: [icu] });
    await store.set(a, EVERY_CUSTOMER, NOW);
    expect(await store.get(a)).toEqual(EVERY_CUSTOMER);
  });

  it('goes with its workspace or tenant when it is forgotten', async () => {
    await store.set({ platform: 'slack', orgId: 'T0GONE', userId: 'U0A' }, { customerIds: ['c1'], places: [] }, NOW);
    await store.set({ platform: 'slack', orgId: 'T0KEPT', userId: 'U0A' }, { customerIds: ['c2'], places: [] }, NOW);
    expect((await forgetWorkspace(db.executor, 'T0GONE')).home_follows).toBe(1);
    expect(await store.get({ platform: 'slack', orgId: 'T0GONE', userId: 'U0A' })).toEqual(EVERY_CUSTOMER);
    expect((await store.get({ platform: 'slack', orgId: 'T0KEPT', userId: 'U0A' })).customerIds).toEqual(['c2']);
  });
});
