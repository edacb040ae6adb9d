/**
 * The digest worker's Slack client per workspace (multi-workspace mode): each subscription posts with its own
 * workspace's bot token, read through the same authorize Bolt uses for requests (InstallProvider.authorize over the
 * installation store, which refreshes a rotating bot token before it expires). One WebClient is kept per team (a
 * small LRU) and made anew when the team's token changes. A workspace without an installation gets null. A
 * workspace of an Enterprise Grid organization is served by the organization's org-wide install when it has none of
 * its own: its connection remembers the organization (`enterpriseOf`).
 */
import { WebClient, type WebClientOptions } from '@slack/web-api';
import { Lru } from '../../chat/connections/lru.ts';
import type { SlackForTeam } from '../digests/delivery.ts';
import { InstallationNotFoundError } from './installation-store.ts';

/** A workspace's tokens by team id: Bolt's `Authorize`, or `InstallProvider.authorize`. */
export type TeamAuthorize = (source: {
  teamId: string;
  enterpriseId: string | undefined;
  isEnterpriseInstall: false;
}) => Promise<{ botToken?: string | undefined }>;

export interface TeamSlackOptions {
  authorize: TeamAuthorize;
  /** Every client's settings (the digest worker's: no retries, rate limits rejected, a timeout). */
  clientOptions: WebClientOptions;
  /** Teams whose client is kept (default 200). */
  capacity?: number;
  /** The Enterprise Grid organization of a workspace, when it has one. */
  enterpriseOf?: ((teamId: string) => Promise<string | undefined>) | undefined;
}

/** InstallProvider.authorize wraps the store's error in its own, as the cause. */
const isNotInstalled = (err: unknown) =>
  err instanceof InstallationNotFoundError || (err instanceof Error && err.cause instanceof InstallationNotFoundError);

export function teamSlackClients(options: TeamSlackOptions): SlackForTeam {
  const clients = new Lru<string, { token: string; client: WebClient }>(options.capacity ?? 200);
  return async (teamId) => {
    if (!teamId) return null;
    let token: string | undefined;
    try {
      const enterpriseId = await options.enterpriseOf?.(teamId);
      ({ botToken: token } = await options.authorize({ teamId, enterpriseId, isEnterpriseInstall: false }));
    } catch (err) {
      if (isNotInstalled(err)) return null;
      throw err;
    }
    if (!token) return null;
    const kept = clients.get(teamId);
    if (kept?.token === token) return kept.client;
    // A copy: the client adds its own settings to the object it is given.
    const client = new WebClient(token, { ...options.clientOptions });
    clients.set(teamId, { token, client });
    return client;
  };
}
