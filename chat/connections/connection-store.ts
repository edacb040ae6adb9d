/**
 * Workspace connections in the bot's database (the digest store's: PGlite or PostgreSQL). Keys are sealed with
 * the SecretBox before they are written and opened only to build a client; `forgetWorkspace(orgId)` (forget.ts)
 * removes a workspace's connection with its keys.
 */

import { randomBytes } from 'node:crypto';
import { keyRefOf } from '../../base/key-ref.ts';
import type { SecretBox } from '../../base/secrets/crypto.ts';
import type { SqlExecutor } from '../../base/store/sql.ts';
import type { Platform } from '../digests/storage/types.ts';
import {
  type AccountingAccess,
  type BoundKey,
  lastFourOf,
  SAFE_ACCOUNTING_DEFAULT,
  type Scope,
  type WorkspaceConnection,
} from './connection.ts';
import { Lru } from './lru.ts';

/** A key's "last answered" is written at most this often: a burst of commands costs one write. */
export const ANSWERED_WRITE_EVERY_MS = 60_000;

export interface NewKey {
  place: string;
  apiKey: string;
  baseUrl: string;
  timeZone: string;
  scopes: Scope[];
  connectedBy: string;
  connectedByName?: string | null | undefined;
}

/** A key opened for use: what a client is built from. */
export interface OpenedKey {
  apiKey: string;
  keyRef: string;
  baseUrl: string;
  timeZone: string;
}

interface KeyRow {
  team_id: string;
  place: string;
  key_ref: string;
  key_sealed: string;
  last_four: string;
  base_url: string;
  time_zone: string;
  scopes: Scope[] | string;
  connected_by: string;
  connected_by_name?: string | null;
  connected_at: Date | string;
}

const json = <T>(v: T | string): T => (typeof v === 'string' ? (JSON.parse(v) as T) : v);

const boundKey = (r: KeyRow): BoundKey => ({
  place: r.place,
  keyRef: r.key_ref,
  lastFour: r.last_four,
  baseUrl: r.base_url,
  timeZone: r.time_zone,
  scopes: json(r.scopes),
  connectedBy: r.connected_by,
  ...(r.connected_by_name ? { connectedByName: r.connected_by_name } : {}),
  connectedAt: new Date(r.connected_at),
});

export class ConnectionStore {
  readonly #db: SqlExecutor;
  readonly #secrets: SecretBox;
  /** When this process last wrote each key's "last answered" (team and key fingerprint). */
  readonly #answeredWritten = new Lru<string, number>(1_000);

  constructor(options: { db: SqlExecutor; secrets: SecretBox }) {
    this.#db = options.db;
    this.#secrets = options.secrets;
  }

  /** The workspace's connection; null when it never connected (or was forgotten). */
  async get(orgId: string): Promise<WorkspaceConnection | null> {
    const [row] = await this.#db.query<{ accounting_channels: string[] | string; accounting_in_dms: boolean }>(
      'SELECT accounting_channels, accounting_in_dms FROM workspace_connections WHERE team_id = $1',
      [orgId],
    );
    if (!row) return null;
    const keys = await this.#db.query<KeyRow>('SELECT * FROM workspace_keys WHERE team_id = $1 ORDER BY place', [
      orgId,
    ]);
    return {
      orgId,
      keys: keys.map(boundKey),
      accounting: { channels: json(row.accounting_channels), directMessages: row.accounting_in_dms },
    };
  }

  /** The Enterprise Grid organization a connected workspace belongs to, when it has one. */
  async enterpriseOf(orgId: string): Promise<string | undefined> {
    const [row] = await this.#db.query<{ enterprise_id: string | null }>(
      'SELECT enterprise_id FROM workspace_connections WHERE team_id = $1',
      [orgId],
    );
    return row?.enterprise_id ?? undefined;
  }

  /** The key bound to `place`, opened. */
  async openKey(orgId: string, place: string): Promise<OpenedKey | null> {
    const [row] = await this.#db.query<KeyRow>('SELECT * FROM workspace_keys WHERE team_id = $1 AND place = $2', [
      orgId,
      place,
    ]);
    return row ? this.#opened(row) : null;
  }

  /** A key by its fingerprint, in any workspace (the digest worker reads with the key a subscription names). */
  async openKeyByRef(keyRef: string): Promise<OpenedKey | null> {
    const [row] = await this.#db.query<KeyRow>('SELECT * FROM workspace_keys WHERE key_ref = $1 LIMIT 1', [keyRef]);
    return row ? this.#opened(row) : null;
  }

  /**
   * Binds a key to a place (replacing the one there); creates the connection with the safe access default.
   * `enterpriseId`: the workspace's Enterprise Grid organization, when it has one (an org-wide install serves it).
   */
  async saveKey(
    orgId: string,
    key: NewKey,
    now: Date,
    where: { enterpriseId?: string | undefined; platform?: Platform | undefined } = {},
  ): Promise<BoundKey> {
    return this.#db.transaction(async (tx) => {
      await tx.query(
        `INSERT INTO workspace_connections (team_id, accounting_channels, accounting_in_dms, updated_at, enterprise_id, platform)
         VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (team_id) DO UPDATE SET updated_at = EXCLUDED.updated_at,
           enterprise_id = COALESCE(EXCLUDED.enterprise_id, workspace_connections.enterprise_id)`,
        [
          orgId,
          JSON.stringify(SAFE_ACCOUNTING_DEFAULT.channels),
          SAFE_ACCOUNTING_DEFAULT.directMessages,
          now,
          where.enterpriseId ?? null,
          where.platform ?? 'slack',
        ],
      );
      const [row] = await tx.query<KeyRow>(
        `INSERT INTO workspace_keys
           (id, team_id, place, key_ref, key_sealed, last_four, base_url, time_zone, scopes, connected_by, connected_at,
            connected_by_name)
         VALUES ($11, $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $12)
         ON CONFLICT (team_id, place) DO UPDATE SET key_ref = EXCLUDED.key_ref, key_sealed = EXCLUDED.key_sealed,
           last_four = EXCLUDED.last_four, base_url = EXCLUDED.base_url, time_zone = EXCLUDED.time_zone,
           scopes = EXCLUDED.scopes, connected_by = EXCLUDED.connected_by, connected_at = EXCLUDED.connected_at,
           connected_by_name = EXCLUDED.connected_by_name, last_answered_at = NULL
         RETURNING *`,
        [
          orgId,
          key.place,
          keyRefOf(key.apiKey),
          this.#secrets.seal(key.apiKey),
          lastFourOf(key.apiKey),
          key.baseUrl,
          key.timeZone,
          JSON.stringify(key.scopes),
          key.connectedBy,
          now,
          `wk_${randomBytes(8).toString('hex')}`,
          key.connectedByName ?? null,
        ],
      );
      return boundKey(row!);
    });
  }

  /** Removes the key of one place, or every key of the workspace (its access rules stay). */
  async removeKeys(orgId: string, place?: string): Promise<number> {
    const rows =
      place === undefined
        ? await this.#db.query('DELETE FROM workspace_keys WHERE team_id = $1 RETURNING place', [orgId])
        : await this.#db.query('DELETE FROM workspace_keys WHERE team_id = $1 AND place = $2 RETURNING place', [
            orgId,
            place,
          ]);
    return rows.length;
  }

  async setAccounting(orgId: string, access: AccountingAccess, now: Date, platform: Platform = 'slack'): Promise<void> {
    await this.#db.query(
      `INSERT INTO workspace_connections (team_id, accounting_channels, accounting_in_dms, updated_at, platform)
       VALUES ($1, $2, $3, $4, $5) ON CONFLICT (team_id) DO UPDATE SET accounting_channels = EXCLUDED.accounting_channels,
         accounting_in_dms = EXCLUDED.accounting_in_dms, updated_at = EXCLUDED.updated_at`,
      [orgId, JSON.stringify(access.channels), access.directMessages, now, platform],
    );
  }

  /**
   * A command of the workspace got an answer from the API with this key. Written at most once a minute per key:
   * skipped in this process within the minute, and the condition keeps other replicas from writing it again.
   */
  async noteAnswered(orgId: string, keyRef: string, now: Date): Promise<void> {
    const id = `${orgId} ${keyRef}`;
    const written = this.#answeredWritten.get(id);
    if (written !== undefined && now.getTime() - written < ANSWERED_WRITE_EVERY_MS) return;
    this.#answeredWritten.set(id, now.getTime());
    await this.#db.query(
      `UPDATE workspace_keys SET last_answered_at = $3
       WHERE team_id = $1 AND key_ref = $2 AND (last_answered_at IS NULL OR last_answered_at <= $4)`,
      [orgId, keyRef, now, new Date(now.getTime() - ANSWERED_WRITE_EVERY_MS)],
    );
  }

  #opened(row: KeyRow): OpenedKey {
    return {
      apiKey: this.#secrets.open(row.key_sealed),
      keyRef: row.key_ref,
      baseUrl: row.base_url,
      timeZone: row.time_zone,
    };
  }
}
