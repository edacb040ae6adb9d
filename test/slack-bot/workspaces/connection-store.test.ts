/**
 * Workspace connections on PGlite and (with TEST_DATABASE_URL) PostgreSQL: keys sealed at rest and opened only to
 * build a client, each workspace's keys its own, forgetting one workspace keeps the other, and clients reused by
 * key fingerprint from a small LRU.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SecretBox } from '../../../base/secrets/crypto.ts';
import { reencryptAll } from '../../../base/secrets/reencrypt.ts';
import { EVERYWHERE } from '../../../chat/connections/connection.ts';
import { ConnectionStore, type OpenedKey } from '../../../chat/connections/connection-store.ts';
import { forgetWorkspace } from '../../../chat/connections/forget.ts';
import { connectedWorkspaceLinen } from '../../../chat/connections/place-linen.ts';
import { LinenService } from '../../../chat/linen.ts';
import { SEALED_COLUMNS } from '../../../service/store.ts';
import { expectNoSecretInDump } from '../../support/db-dump.ts';
import { drivers, openTestDb, type TestDb } from '../../support/digest-db.ts';

const NOW = new Date('2026-11-20T18:00:00Z');
const KEY_A = 'lk_live_demo_mercy_ops';
const KEY_B = 'lk_live_demo_harbor_hotel';
const key = (apiKey: string, place = EVERYWHERE) => ({
  place,
  apiKey,
  baseUrl: 'https://api.example.com/v1',
  timeZone: 'America/Chicago',
  scopes: ['processing' as const],
  connectedBy: 'U0ADMIN01',
});

describe.each(drivers)('workspace connections on %s', (driver) => {
  let db: TestDb;
  let store: ConnectionStore;
  // One database for the suite (an embedded one takes a while to start on a busy machine), emptied per test.
  beforeAll(async () => {
    db = await openTestDb(driver);
  }, 120_000);
  afterAll(async () => {
    await db?.close();
  });

  async function setup() {
    await db.executor.query('TRUNCATE workspace_connections CASCADE');
    store = new ConnectionStore({
      db: db.executor,
      secrets: new SecretBox({ current: randomBytes(32).toString('base64') }),
    });
  }

  it('keeps a key sealed, shows its last four, and opens it only on request', async () => {
    await setup();
    const saved = await store.saveKey('T0AAA', key(KEY_A), NOW);
    expect(saved).toMatchObject({ place: EVERYWHERE, lastFour: '_ops', scopes: ['processing'] });
    expect(JSON.stringify(await store.get('T0AAA'))).not.toContain(KEY_A);
    expect((await store.openKey('T0AAA', EVERYWHERE))?.apiKey).toBe(KEY_A);
    expect((await store.openKeyByRef(saved.keyRef))?.apiKey).toBe(KEY_A);
    await expectNoSecretInDump(db.executor, [KEY_A], [saved.keyRef]);
  });

  it('npm run reencrypt moves connected Linen keys to the current encryption key', async () => {
    const oldKey = randomBytes(32).toString('base64');
    const newKey = randomBytes(32).toString('base64');
    await db.executor.query('TRUNCATE workspace_connections CASCADE');
    const before = new ConnectionStore({ db: db.executor, secrets: new SecretBox({ current: oldKey }) });
    await before.saveKey('T0AAA', key(KEY_A), NOW);
    const moved = await reencryptAll(db.executor, new SecretBox({ current: newKey, old: [oldKey] }), SEALED_COLUMNS);
    expect(moved.workspace_keys).toBe(1);
    const after = new ConnectionStore({ db: db.executor, secrets: new SecretBox({ current: newKey }) });
    expect((await after.openKey('T0AAA', EVERYWHERE))?.apiKey).toBe(KEY_A);
  });

  it('a new connection starts with accounting answers nowhere; a workspace sees only its own keys', async () => {
    await setup();
    await store.saveKey('T0AAA', key(KEY_A), NOW);
    await store.saveKey('T0BBB', key(KEY_B), NOW);
    await store.saveKey('T0BBB', key(KEY_A, 'C0FIN0001'), NOW);
    const a = await store.get('T0AAA');
    expect(a?.accounting).toEqual({ channels: [], directMessages: false });
    expect(a?.keys.map((k) => k.lastFour)).toEqual(['_ops']);
    expect((await store.get('T0BBB'))?.keys.map((k) => [k.place, k.lastFour])).toEqual([
      [EVERYWHERE, 'otel'],
      ['C0FIN0001', '_ops'],
    ]);
    expect(await store.openKey('T0AAA', 'C0FIN0001')).toBeNull();
  });

  it('forgetting a workspace deletes its connection and keys and keeps the other', async () => {
    await setup();
    await store.saveKey('T0AAA', key(KEY_A), NOW);
    await store.saveKey('T0AAA', key(KEY_A, 'C0FIN0001'), NOW);
    await store.saveKey('T0BBB', key(KEY_B), NOW);
    const deleted = await forgetWorkspace(db.executor, 'T0AAA');
    expect(deleted.workspace_connections).toBe(1);
    expect(await store.get('T0AAA')).toBeNull();
    const left = await db.executor.query<{ team_id: string }>('SELECT team_id FROM workspace_keys');
    expect(left.map((r) => r.team_id)).toEqual(['T0BBB']);
  });

  it('clients are reused by key fingerprint, and the least recently used one is closed past capacity', async () => {
    await setup();
    await store.saveKey('T0AAA', key(KEY_A), NOW);
    await store.saveKey('T0BBB', key(KEY_A), NOW);
    await store.saveKey('T0CCC', key(KEY_B), NOW);
    const made: OpenedKey[] = [];
    const closed: string[] = [];
    const workspaces = connectedWorkspaceLinen({
      connections: store,
      maxClients: 1,
      createService: (k) => {
        made.push(k);
        const service = new LinenService({ apiKey: k.apiKey, baseUrl: k.baseUrl, timeZone: k.timeZone });
        const close = service.close.bind(service);
        service.close = async () => {
          closed.push(k.keyRef);
          await close();
        };
        return service;
      },
    });
    const a = await workspaces.for({ orgId: 'T0AAA', channelId: 'C0OPS0001' });
    const b = await workspaces.for({ orgId: 'T0BBB', channelId: 'C0OPS0001' });
    expect(a.kind === 'ready' && b.kind === 'ready' && a.linen === b.linen).toBe(true);
    expect(made).toHaveLength(1);
    await workspaces.for({ orgId: 'T0CCC', channelId: 'C0OPS0001' });
    expect(made).toHaveLength(2);
    expect(closed).toEqual([made[0]!.keyRef]);
    expect(await workspaces.for({ orgId: 'T0NONE', channelId: 'C0OPS0001' })).toMatchObject({ kind: 'not-connected' });
    await workspaces.close();
  });
});
