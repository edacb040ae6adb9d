/**
 * A store for the `npm run admin -- status` suites, on PGlite (a folder) or PostgreSQL (a fresh schema), as the
 * command finds it through the bot's settings: two installed workspaces with keys connected, and digests in
 * several states (due, paused, failing because its channel is gone, retrying after Slack failed).
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Installation } from '@slack/bolt';
import { keyRefOf } from '../../base/key-ref.ts';
import { SecretBox } from '../../base/secrets/crypto.ts';
import { openPg } from '../../base/store/pg.ts';
import { openPglite } from '../../base/store/pglite.ts';
import type { SqlExecutor } from '../../base/store/sql.ts';
import { AlertStore } from '../../chat/alerts/storage/store.ts';
import type { NewAlert } from '../../chat/alerts/storage/types.ts';
import { EVERYWHERE } from '../../chat/connections/connection.ts';
import { ConnectionStore } from '../../chat/connections/connection-store.ts';
import { digestStoreOver } from '../../chat/digests/storage/index.ts';
import { migrateServiceDatabase } from '../../service/store.ts';
import { explainFailure } from '../../slack-bot/digests/delivery.ts';
import { SqlInstallationStore } from '../../slack-bot/workspaces/installation-store.ts';
import { dropSchema, freshSchema, newSubscription, PG_URL } from './digest-db.ts';

export const NOW = new Date('2026-11-20T18:00:00Z');
const HOUR = 3_600_000;
export const TEAM_A = 'T0AAA';
export const TEAM_B = 'T0BBB';
export const KEY_A = 'lk_live_demo_mercy_ops_a1b2';
export const KEY_FIN = 'lk_live_demo_mercy_fin_9f3c';
export const KEY_B = 'lk_live_demo_harbor_c4d5';
export const BASE_URL = 'https://api.example.com/v1';
export const ENCRYPTION_KEY = randomBytes(32).toString('base64');
export const box = new SecretBox({ current: ENCRYPTION_KEY });
const tokenOf = (team: string) => `${team.toLowerCase()}-token-1234567890`;

/** Every secret the store was given: none may appear in what the command prints. */
export const SECRETS = [KEY_A, KEY_FIN, KEY_B, ENCRYPTION_KEY].concat(
  [TEAM_A, TEAM_B].flatMap((t) => [`xoxb-${tokenOf(t)}`, `xoxe-1-refresh-${tokenOf(t)}`, `xoxp-user-${tokenOf(t)}`]),
);

export interface AdminStore {
  /** The settings the command reads (DATABASE_URL or LINEN_DATA_DIR). */
  env: Record<string, string>;
  /** The store's database, migrated (close it before the command opens a PGlite folder). */
  open(): Promise<SqlExecutor>;
  remove(): Promise<void>;
}

export function adminStore(driver: 'pglite' | 'pg'): AdminStore {
  if (driver === 'pglite') {
    const dir = mkdtempSync(join(tmpdir(), 'linen-admin-'));
    return {
      env: { LINEN_DATA_DIR: dir },
      open: async () => migrated(await openPglite(join(dir, 'digests'))),
      remove: async () => rmSync(dir, { recursive: true, force: true }),
    };
  }
  const schema = freshSchema();
  const url = new URL(PG_URL!);
  url.searchParams.set('options', `-c search_path=${schema}`);
  return {
    env: { DATABASE_URL: url.toString() },
    open: async () => migrated(await openPg({ connectionString: PG_URL!, schema })),
    remove: () => dropSchema(PG_URL!, schema),
  };
}

async function migrated(db: SqlExecutor): Promise<SqlExecutor> {
  await migrateServiceDatabase(db);
  return db;
}

function install(teamId: string): Installation<'v2', false> {
  const token = tokenOf(teamId);
  return {
    team: { id: teamId, name: `Team ${teamId}` },
    enterprise: undefined,
    user: { id: 'U0ADMIN', token: `xoxp-user-${token}`, scopes: undefined },
    bot: {
      id: 'B0BOT',
      userId: 'U0BOT',
      scopes: ['commands', 'chat:write'],
      token: `xoxb-${token}`,
      refreshToken: `xoxe-1-refresh-${token}`,
      expiresAt: 1_900_000_000,
    },
    appId: 'A0LINEN',
    tokenType: 'bot',
    isEnterpriseInstall: false,
    authVersion: 'v2',
  };
}

const key = (apiKey: string, place = EVERYWHERE) => ({
  place,
  apiKey,
  baseUrl: BASE_URL,
  timeZone: 'America/Chicago',
  scopes: ['processing' as const],
  connectedBy: 'U0ADMIN',
});

/** Ids of the subscriptions made, by what they show. */
export interface Seeded {
  due: string;
  paused: string;
  gone: string;
  retrying: string;
}

export async function seed(db: SqlExecutor): Promise<Seeded> {
  const installations = new SqlInstallationStore({ db, box });
  await installations.storeInstallation(install(TEAM_A));
  await installations.storeInstallation(install(TEAM_B));
  await db.query(`UPDATE slack_installations SET installed_at = $1`, [new Date(NOW.getTime() - 48 * HOUR)]);
  const connections = new ConnectionStore({ db, secrets: box });
  const connectedAt = new Date(NOW.getTime() - 24 * HOUR);
  await connections.saveKey(TEAM_A, key(KEY_A), connectedAt);
  await connections.saveKey(TEAM_A, key(KEY_FIN, 'C0FIN'), connectedAt);
  await connections.saveKey(TEAM_B, key(KEY_B), connectedAt);

  const store = digestStoreOver(db);
  const created = new Date(NOW.getTime() - 24 * HOUR);
  const sub = (teamId: string, apiKey: string, channelId: string, fields = {}) =>
    store.createSubscription(
      newSubscription({ orgId: teamId, keyRef: keyRefOf(apiKey), channelId, ...fields }),
      created,
      new Date(NOW.getTime() + 13 * HOUR),
    );
  const due = await sub(TEAM_A, KEY_A, 'C0OPS');
  const paused = await sub(TEAM_A, KEY_FIN, 'C0FIN', { kind: 'receivables', cadence: 'mon' });
  await store.setStatus(paused.id, 'paused', created, null);
  const gone = await sub(TEAM_B, KEY_B, 'C0GONE');
  await store.markFailing(gone.id, explainFailure('channel_not_found', 'C0GONE'), new Date(NOW.getTime() - 11 * HOUR));
  const retrying = await sub(TEAM_B, KEY_B, 'C0LATE', { time: '11:00' });

  const run = (id: string, subscriptionId: string, status: string, hoursAgo: number, error: string | null) =>
    db.query(
      `INSERT INTO digest_runs (id, subscription_id, scheduled_for, status, attempts, error, created_at, finished_at)
       VALUES ($1, $2, $3, $4, 1, $5, $3, $6)`,
      [
        id,
        subscriptionId,
        new Date(NOW.getTime() - hoursAgo * HOUR),
        status,
        error,
        status === 'pending' ? null : new Date(NOW.getTime() - hoursAgo * HOUR),
      ],
    );
  await run('run_due', due.id, 'posted', 11, null);
  await run('run_gone', gone.id, 'failed', 11, 'channel_not_found');
  await run('run_late', retrying.id, 'pending', 1, 'Slack answered 500 Internal Server Error');
  return { due: due.id, paused: paused.id, gone: gone.id, retrying: retrying.id };
}

/** Ids of the alerts made, by what they show. */
export interface SeededAlerts {
  /** Checked 5 minutes ago with 3 requests, fired an hour ago. */
  checked: string;
  /** Paused, to its creator's direct messages. */
  paused: string;
  /** Stopped: its channel is gone. */
  gone: string;
  /** Its post failed and waits for a retry. */
  retrying: string;
  /** On a key no longer connected, whose last check could not read. */
  unread: string;
}

/** The key of an alert whose connection was removed. */
export const GONE_KEY_REF = keyRefOf('lk_live_demo_removed_0000');

/** Alerts beside `seed`'s digests, on the same keys: one of each state the status shows. */
export async function seedAlerts(db: SqlExecutor): Promise<SeededAlerts> {
  const store = new AlertStore(db);
  const created = new Date(NOW.getTime() - 24 * HOUR);
  const alert = (teamId: string, keyRef: string, kind: string, options: unknown, fields: Partial<NewAlert> = {}) =>
    store.createAlert(
      {
        platform: 'slack',
        orgId: teamId,
        keyRef,
        kind,
        options,
        customerIds: [],
        timeZone: 'America/Chicago',
        channelId: 'C0OPS',
        channelName: null,
        serviceUrl: null,
        direct: false,
        createdBy: 'U0ALICE',
        seen: [],
        ...fields,
      },
      created,
      new Date(NOW.getTime() + 10 * 60_000),
    );
  const checked = await alert(
    TEAM_A,
    keyRefOf(KEY_A),
    'short',
    { minMissing: 5, unitIds: ['unit_icu'], place: 'ICU' },
    { customerIds: ['cust_mercy'] },
  );
  const paused = await alert(
    TEAM_A,
    keyRefOf(KEY_FIN),
    'overdue',
    { days: 60 },
    { direct: true, channelId: 'D0ALICE' },
  );
  await store.setAlertStatus(paused.id, 'paused', created);
  const gone = await alert(
    TEAM_B,
    keyRefOf(KEY_B),
    'signal',
    { kind: 'shortfall', minSeverity: 'high' },
    { channelId: 'C0GONE' },
  );
  const retrying = await alert(TEAM_B, keyRefOf(KEY_B), 'ticket', {}, { channelId: 'C0LATE' });
  const unread = await alert(TEAM_B, GONE_KEY_REF, 'budget', { percent: 20 });

  await db.query(`UPDATE alerts SET last_fired_at = $2 WHERE id = $1`, [checked.id, new Date(NOW.getTime() - HOUR)]);
  await db.query(`UPDATE alert_checks SET last_at = $2, last_requests = 3 WHERE key_ref = $1`, [
    keyRefOf(KEY_A),
    new Date(NOW.getTime() - 5 * 60_000),
  ]);
  await db.query(`UPDATE alert_checks SET last_at = $2, last_error = $3 WHERE key_ref = $1`, [
    GONE_KEY_REF,
    new Date(NOW.getTime() - 2 * 60_000),
    'no configured API key matches this key reference',
  ]);
  await store.markFailing(gone.id, explainFailure('channel_not_found', 'C0GONE'), new Date(NOW.getTime() - 3 * HOUR));
  const post = (id: string, alertId: string, status: string, hoursAgo: number, error: string | null) =>
    db.query(
      `INSERT INTO alert_posts (id, alert_id, checked_at, status, told, attempts, error, channel_id, created_at,
         finished_at)
       VALUES ($1, $2, $3, $4, '[]'::jsonb, 1, $5, 'C0', $3, $6)`,
      [
        id,
        alertId,
        new Date(NOW.getTime() - hoursAgo * HOUR),
        status,
        error,
        status === 'pending' ? null : new Date(NOW.getTime() - hoursAgo * HOUR),
      ],
    );
  await post('p_fired', checked.id, 'posted', 1, null);
  await post('p_gone', gone.id, 'failed', 3, 'channel_not_found');
  await post('p_late', retrying.id, 'pending', 1, 'Slack answered 500 Internal Server Error');
  return { checked: checked.id, paused: paused.id, gone: gone.id, retrying: retrying.id, unread: unread.id };
}
