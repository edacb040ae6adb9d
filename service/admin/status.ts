/**
 * What `npm run admin -- status` reports, read from the store without changing it: the installed workspaces, each
 * connected key by its last four characters and when a command last got an answer with it, the digest
 * subscriptions with their runs, the alerts with their keys' checks (alert-status.ts), and the ones that fail with
 * why. Never a sealed column: no key or token is read. A store of an older version (a column or table missing) is
 * read as far as it goes.
 */
import { keyRefOf } from '../../base/key-ref.ts';
import type { SqlExecutor } from '../../base/store/sql.ts';
import { type AlertStatus, readAlertStatus } from './alert-status.ts';

/** Every row names its platform: a Slack workspace, or a Microsoft Teams tenant. */
export type Platform = 'slack' | 'teams';

export interface WorkspaceRow {
  platform: Platform;
  /**
   * The Slack team id, `*` for an org-wide install (which serves every workspace of its organization), or the Teams
   * tenant id.
   */
  workspace: string;
  organization: string | null;
  /**
   * `workspace`: installed itself; `org-wide`: an Enterprise Grid install; `via-organization`: served by one;
   * `conversations`: a Teams tenant with the app in `conversations` of its teams and chats.
   */
  install: 'workspace' | 'org-wide' | 'via-organization' | 'conversations' | 'none';
  /** Teams: the conversations (teams, group chats, 1:1 chats) the app is installed in. */
  conversations?: number;
  installedAt: Date | null;
  keys: number;
  subscriptions: number;
}

export interface ConnectionRow {
  platform: Platform;
  workspace: string;
  /** `*` (the workspace default) or a channel id. */
  place: string;
  /** `…` and the key's last four characters. */
  key: string;
  baseUrl: string;
  timeZone: string;
  scopes: string[];
  connectedBy: string;
  connectedAt: Date;
  /** Null: no command has been answered with it since the store recorded it. */
  lastAnsweredAt: Date | null;
  /** False on a store of a version before "last answered" was recorded. */
  lastAnsweredKnown: boolean;
}

export interface LastRun {
  status: string;
  at: Date;
  error: string | null;
}

export interface SubscriptionRow {
  platform: Platform;
  id: string;
  workspace: string | null;
  kind: string;
  channel: string;
  schedule: string;
  /** The key it reads with: `…` and its last four, or why that is not known. */
  key: string;
  state: 'active' | 'paused' | 'failing';
  nextRunAt: Date | null;
  lastRun: LastRun | null;
}

export interface FailingRow {
  platform: Platform;
  id: string;
  workspace: string | null;
  channel: string;
  /** `failing`: stopped until resumed; `retrying`: its due run failed and is tried again. */
  state: 'failing' | 'retrying';
  since: Date;
  reason: string;
  /** The last run's error code (`not_in_channel`, `linen_auth`...), when one was recorded. */
  code: string | null;
}

export interface StatusReport extends AlertStatus {
  workspaces: WorkspaceRow[];
  connections: ConnectionRow[];
  /**
   * Single-workspace mode keeps no connection row: its key is LINEN_API_KEY, shown here when set for this command
   * (or, for a report a running service answered, for that service).
   */
  environmentKey: string | null;
  subscriptions: SubscriptionRow[];
  failing: FailingRow[];
}

export const hint = (lastFour: string): string => `…${lastFour}`;

/** Slack's mrkdwn in a failure reason (`<#C0123>`, backticks) as plain text. */
const plain = (text: string): string => text.replace(/<#([A-Z0-9]+)(\|[^>]*)?>/g, '#$1').replace(/`/g, '');

const date = (v: Date | string | null): Date | null => (v === null ? null : new Date(v));

async function columnsOf(db: SqlExecutor): Promise<Set<string>> {
  const rows = await db.query<{ table_name: string; column_name: string }>(
    `SELECT table_name, column_name FROM information_schema.columns WHERE table_schema = current_schema()`,
  );
  return new Set(rows.map((r) => `${r.table_name}.${r.column_name}`));
}

interface InstallationRow {
  team_id: string | null;
  enterprise_id: string | null;
  is_enterprise_install: boolean;
  installed_at: Date | string;
}

interface TenantRow {
  tenant_id: string;
  conversations: number | string;
  installed_at: Date | string;
}

interface KeyRow {
  platform: Platform;
  team_id: string;
  enterprise_id: string | null;
  place: string | null;
  last_four: string | null;
  key_ref: string | null;
  base_url: string | null;
  time_zone: string | null;
  scopes: string[] | string | null;
  connected_by: string | null;
  connected_at: Date | string | null;
  last_answered_at: Date | string | null;
}

interface SubscriptionDbRow {
  platform: Platform;
  id: string;
  team_id: string | null;
  kind: string;
  channel_id: string;
  cadence: string;
  time_of_day: string;
  time_zone: string;
  key_ref: string;
  status: 'active' | 'paused' | 'failing';
  failure_reason: string | null;
  updated_at: Date | string;
  next_run_at: Date | string | null;
}

interface RunRow {
  subscription_id: string;
  status: string;
  at: Date | string;
  error: string | null;
}

export async function readStatus(db: SqlExecutor, env: Record<string, string | undefined>): Promise<StatusReport> {
  const columns = await columnsOf(db);
  const has = (column: string) => columns.has(column);

  const installations = has('slack_installations.id')
    ? await db.query<InstallationRow>(
        'SELECT team_id, enterprise_id, is_enterprise_install, installed_at FROM slack_installations ORDER BY id',
      )
    : [];
  const platformOf = (table: string) => (has(`${table}.platform`) ? 'platform' : `'slack' AS platform`);
  const tenants = has('teams_conversations.tenant_id')
    ? await db.query<TenantRow>(
        `SELECT tenant_id, count(*) AS conversations, min(installed_at) AS installed_at
         FROM teams_conversations GROUP BY tenant_id ORDER BY tenant_id`,
      )
    : [];
  const keyRows = has('workspace_keys.key_ref')
    ? await db.query<KeyRow>(
        `SELECT c.${platformOf('workspace_connections')}, c.team_id, ${has('workspace_connections.enterprise_id') ? 'c.enterprise_id' : 'NULL AS enterprise_id'},
           k.place, k.last_four, k.key_ref, k.base_url, k.time_zone, k.scopes, k.connected_by, k.connected_at,
           ${has('workspace_keys.last_answered_at') ? 'k.last_answered_at' : 'NULL AS last_answered_at'}
         FROM workspace_connections c LEFT JOIN workspace_keys k ON k.team_id = c.team_id
         ORDER BY c.team_id, k.place`,
      )
    : [];
  const subscriptions = has('digest_subscriptions.id')
    ? await db.query<SubscriptionDbRow>(
        `SELECT ${platformOf('digest_subscriptions')}, id, team_id, ${has('digest_subscriptions.kind') ? 'kind' : `'shortfall' AS kind`}, channel_id, cadence,
           time_of_day, time_zone, key_ref, status, failure_reason, updated_at, next_run_at
         FROM digest_subscriptions ORDER BY team_id NULLS FIRST, channel_id, id`,
      )
    : [];
  // Each subscription's latest finished run, and its open run that failed and waits for a retry.
  const finished = subscriptions.length
    ? await db.query<RunRow>(
        `SELECT DISTINCT ON (subscription_id) subscription_id, status, coalesce(finished_at, scheduled_for) AS at, error
         FROM digest_runs WHERE status IN ('posted', 'quiet', 'skipped', 'failed')
         ORDER BY subscription_id, scheduled_for DESC`,
      )
    : [];
  const retrying = subscriptions.length
    ? await db.query<RunRow>(
        `SELECT DISTINCT ON (subscription_id) subscription_id, status, scheduled_for AS at, error
         FROM digest_runs WHERE status IN ('pending', 'claimed', 'posting') AND error IS NOT NULL
         ORDER BY subscription_id, scheduled_for`,
      )
    : [];

  const lastAnsweredKnown = has('workspace_keys.last_answered_at');
  const connections: ConnectionRow[] = keyRows
    .filter((k) => k.place !== null)
    .map((k) => ({
      platform: k.platform,
      workspace: k.team_id,
      place: k.place!,
      key: hint(k.last_four ?? '????'),
      baseUrl: k.base_url ?? '',
      timeZone: k.time_zone ?? '',
      scopes: typeof k.scopes === 'string' ? (JSON.parse(k.scopes) as string[]) : (k.scopes ?? []),
      connectedBy: k.connected_by ?? '',
      connectedAt: date(k.connected_at)!,
      lastAnsweredAt: date(k.last_answered_at),
      lastAnsweredKnown,
    }));

  const envKey = env.LINEN_API_KEY?.trim() || undefined;
  const keyNames = new Map<string, string>();
  if (envKey) keyNames.set(keyRefOf(envKey), `${hint(envKey.slice(-4))} (LINEN_API_KEY)`);
  for (const k of keyRows) if (k.key_ref && k.last_four) keyNames.set(k.key_ref, hint(k.last_four));

  const lastRuns = new Map(finished.map((r) => [r.subscription_id, r]));
  const subscriptionRows: SubscriptionRow[] = subscriptions.map((s) => {
    const last = lastRuns.get(s.id);
    return {
      platform: s.platform,
      id: s.id,
      workspace: s.team_id,
      kind: s.kind,
      channel: s.channel_id,
      schedule: `${s.cadence} ${s.time_of_day} ${s.time_zone}`,
      key: keyNames.get(s.key_ref) ?? 'not connected',
      state: s.status,
      nextRunAt: s.status === 'active' ? date(s.next_run_at) : null,
      lastRun: last ? { status: last.status, at: date(last.at)!, error: last.error } : null,
    };
  });

  const retries = new Map(retrying.map((r) => [r.subscription_id, r]));
  const failing: FailingRow[] = [];
  for (const s of subscriptions) {
    const retry = retries.get(s.id);
    if (s.status === 'failing') {
      const last = lastRuns.get(s.id);
      failing.push({
        platform: s.platform,
        id: s.id,
        workspace: s.team_id,
        channel: s.channel_id,
        state: 'failing',
        since: date(s.updated_at)!,
        reason: plain(s.failure_reason ?? 'no reason recorded'),
        code: last?.status === 'failed' || last?.status === 'skipped' ? last.error : null,
      });
    } else if (s.status === 'active' && retry) {
      failing.push({
        platform: s.platform,
        id: s.id,
        workspace: s.team_id,
        channel: s.channel_id,
        state: 'retrying',
        since: date(retry.at)!,
        reason: `its due digest failed and is tried again: ${plain(retry.error ?? '')}`,
        code: null,
      });
    }
  }

  return {
    workspaces: workspacesOf(installations, tenants, keyRows, subscriptions),
    connections,
    environmentKey: envKey ? hint(envKey.slice(-4)) : null,
    subscriptions: subscriptionRows,
    failing,
    ...(await readAlertStatus(db, has, keyNames)),
  };
}

/**
 * One row per Slack installation and per Teams tenant with the app installed, then per workspace or tenant known
 * only by its connection or its subscriptions.
 */
function workspacesOf(
  installations: InstallationRow[],
  tenants: TenantRow[],
  keyRows: KeyRow[],
  subscriptions: SubscriptionDbRow[],
): WorkspaceRow[] {
  const id = (platform: Platform, team: string) => `${platform} ${team}`;
  const keys = new Map<string, number>();
  const organizations = new Map<string, string | null>();
  for (const k of keyRows) {
    const at = id(k.platform, k.team_id);
    keys.set(at, (keys.get(at) ?? 0) + (k.place === null ? 0 : 1));
    organizations.set(at, k.enterprise_id);
  }
  const subs = new Map<string, number>();
  for (const s of subscriptions)
    if (s.team_id) subs.set(id(s.platform, s.team_id), (subs.get(id(s.platform, s.team_id)) ?? 0) + 1);
  const orgWide = new Set(installations.filter((i) => i.is_enterprise_install).map((i) => i.enterprise_id));

  const rows: WorkspaceRow[] = [];
  const seen = new Set<string>();
  for (const i of installations) {
    const team = i.is_enterprise_install ? '*' : (i.team_id ?? '*');
    if (team !== '*') seen.add(id('slack', team));
    rows.push({
      platform: 'slack',
      workspace: team,
      organization: i.enterprise_id,
      install: i.is_enterprise_install ? 'org-wide' : 'workspace',
      installedAt: date(i.installed_at),
      keys: team === '*' ? 0 : (keys.get(id('slack', team)) ?? 0),
      subscriptions: team === '*' ? 0 : (subs.get(id('slack', team)) ?? 0),
    });
  }
  for (const t of tenants) {
    const at = id('teams', t.tenant_id);
    seen.add(at);
    rows.push({
      platform: 'teams',
      workspace: t.tenant_id,
      organization: null,
      install: 'conversations',
      conversations: Number(t.conversations),
      installedAt: date(t.installed_at),
      keys: keys.get(at) ?? 0,
      subscriptions: subs.get(at) ?? 0,
    });
  }
  const others = [...new Set([...keys.keys(), ...subs.keys()])].filter((t) => !seen.has(t)).sort();
  for (const at of others) {
    const [platform, team] = [at.slice(0, at.indexOf(' ')) as Platform, at.slice(at.indexOf(' ') + 1)];
    const organization = organizations.get(at) ?? null;
    rows.push({
      platform,
      workspace: team,
      organization,
      install: organization && orgWide.has(organization) ? 'via-organization' : 'none',
      installedAt: null,
      keys: keys.get(at) ?? 0,
      subscriptions: subs.get(at) ?? 0,
    });
  }
  return rows;
}

export function isEmpty(report: StatusReport): boolean {
  return (
    report.workspaces.length === 0 &&
    report.connections.length === 0 &&
    report.subscriptions.length === 0 &&
    report.alerts.length === 0
  );
}
