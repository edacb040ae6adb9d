/**
 * The fake Bot Connector (test/support/teams-connector-fake.ts) and the token endpoint whose tokens it accepts, in a
 * child process of their own, so the Teams digest benchmark measures the bot's work per post and not the fakes'.
 * The Connector enforces Teams' per-conversation send limits (7 a second, 60 in 30 seconds: 429 with Retry-After).
 * The child answers `posts` with the posts per conversation and the calls it refused with 429.
 */
import { fileURLToPath, pathToFileURL } from 'node:url';
import { startTeamsConnectorFake } from '../test/support/teams-connector-fake.ts';
import { startTeamsTokenFake } from '../test/support/teams-token-fake.ts';
import { forkChild } from './child-process.ts';

/** Where the bot posts, and the registration it asks its token with. */
export interface TeamsConnectorTarget {
  serviceUrl: string;
  clientId: string;
  clientSecret: string;
  tenantId: string;
  loginUrl: string;
}

export interface TeamsConnectorCounts {
  /** Sends and replies accepted, by conversation. */
  postsByConversation: Record<string, number>;
  /** Calls answered 429 (over Teams' limits). */
  throttled: number;
}

export interface TeamsConnectorProcess {
  target: TeamsConnectorTarget;
  counts(): Promise<TeamsConnectorCounts>;
  close(): Promise<void>;
}

export async function startTeamsConnectorProcess(): Promise<TeamsConnectorProcess> {
  const child = await forkChild<TeamsConnectorTarget>(fileURLToPath(import.meta.url), {});
  return {
    target: child.ready,
    counts: () => child.ask<TeamsConnectorCounts>('posts'),
    close: child.close,
  };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href && process.send) {
  const tokens = await startTeamsTokenFake();
  const connector = await startTeamsConnectorFake({ verifyToken: (t) => tokens.verify(t) });
  connector.enforceRateLimits = true;
  process.on('message', () => {
    const postsByConversation: Record<string, number> = {};
    for (const a of connector.activities)
      if (a.operation === 'send' || a.operation === 'reply')
        postsByConversation[a.conversationId] = (postsByConversation[a.conversationId] ?? 0) + 1;
    const throttled = connector.requests.filter((r) => r.status === 429).length;
    process.send?.({ postsByConversation, throttled } satisfies TeamsConnectorCounts);
  });
  // The benchmark gone (even killed), this process goes too.
  process.on('disconnect', () => process.exit(0));
  process.send({
    serviceUrl: connector.serviceUrl,
    clientId: tokens.clientId,
    clientSecret: tokens.clientSecret,
    tenantId: tokens.tenantId,
    loginUrl: tokens.origin,
  } satisfies TeamsConnectorTarget);
}
