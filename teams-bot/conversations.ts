/**
 * The Teams conversations the app is installed in (a team's channels, group chats, 1:1 chats), each with its tenant
 * and the service URL it is reached through. Installing records the conversation; removing the app from a team or a
 * chat deletes, in one transaction, the digest subscriptions of its conversations and their records, and, once the
 * tenant has no conversation left, everything kept for the tenant (its keys, access rules and admins).
 */

import type { SqlExecutor } from '../base/store/sql.ts';
import { deleteWorkspaceRows } from '../chat/connections/forget.ts';
import { Lru } from '../chat/connections/lru.ts';

export type ConversationType = 'personal' | 'channel' | 'groupChat';

export interface TeamsConversation {
  /** The conversation's id, without a channel thread's `;messageid=`. */
  conversationId: string;
  tenantId: string;
  type: ConversationType;
  /** The team of a channel. */
  teamId: string | null;
  serviceUrl: string;
}

/** A channel message's conversation id names its thread (`;messageid=…`): the channel's own id is before it. */
export const channelOf = (conversationId: string) => conversationId.split(';')[0]!;

export interface Forgotten {
  conversations: number;
  subscriptions: number;
  /** The tenant had no conversation left: its connection, keys, access rules and admins were deleted too. */
  tenantForgotten: boolean;
}

export class TeamsConversations {
  readonly #db: SqlExecutor;
  /** Conversations this process has recorded (a message then costs no write). */
  readonly #seen = new Lru<string, true>(5_000);

  constructor(db: SqlExecutor) {
    this.#db = db;
  }

  /** Records the conversation once (its service URL updated if it moved). */
  async record(c: TeamsConversation, now: Date): Promise<void> {
    const id = channelOf(c.conversationId);
    const seenAs = `${id} ${c.serviceUrl}`;
    if (this.#seen.get(seenAs)) return;
    await this.#db.query(
      `INSERT INTO teams_conversations (conversation_id, tenant_id, conversation_type, team_id, service_url, installed_at)
       VALUES ($1, $2, $3, $4, $5, $6)
       ON CONFLICT (conversation_id) DO UPDATE SET service_url = EXCLUDED.service_url,
         team_id = COALESCE(EXCLUDED.team_id, teams_conversations.team_id)`,
      [id, c.tenantId, c.type, c.teamId, c.serviceUrl, now],
    );
    this.#seen.set(seenAs, true);
  }

  /** The app was removed from a team (every channel of it) or from one chat. */
  async forget(scope: { tenantId: string; teamId?: string | null; conversationId?: string }): Promise<Forgotten> {
    this.#seen.clear();
    return this.#db.transaction(async (tx) => {
      const ids = (
        scope.teamId
          ? await tx.query<{ conversation_id: string }>(
              'SELECT conversation_id FROM teams_conversations WHERE tenant_id = $1 AND (team_id = $2 OR conversation_id = $2)',
              [scope.tenantId, scope.teamId],
            )
          : await tx.query<{ conversation_id: string }>(
              'SELECT conversation_id FROM teams_conversations WHERE tenant_id = $1 AND conversation_id = $2',
              [scope.tenantId, channelOf(scope.conversationId ?? '')],
            )
      ).map((r) => r.conversation_id);
      // A conversation never recorded (installed before this store) still loses its subscriptions.
      const gone = [...new Set([...ids, ...(scope.conversationId ? [channelOf(scope.conversationId)] : [])])];
      const subscriptions = await tx.query(
        `DELETE FROM digest_subscriptions WHERE platform = 'teams' AND team_id = $1 AND channel_id = ANY($2::text[]) RETURNING 1`,
        [scope.tenantId, gone],
      );
      await tx.query('DELETE FROM teams_conversations WHERE conversation_id = ANY($1::text[])', [gone]);
      const [left] = await tx.query<{ n: number | string }>(
        'SELECT count(*) AS n FROM teams_conversations WHERE tenant_id = $1',
        [scope.tenantId],
      );
      const tenantForgotten = Number(left?.n ?? 0) === 0;
      if (tenantForgotten) await deleteWorkspaceRows(tx, scope.tenantId);
      return { conversations: ids.length, subscriptions: subscriptions.length, tenantForgotten };
    });
  }
}
