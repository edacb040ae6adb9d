/**
 * Workspaces installed for a suite through /slack/install and /slack/oauth_redirect: a harness whose fake Slack
 * knows the workspaces and their users, a database with no installation or connection left from another suite,
 * and a bot in OAuth mode on it, started before the suite's tests and closed after them. The returned object is
 * filled in by the time a test runs, not when the file is loaded.
 */
import { afterAll, beforeAll, expect } from 'vitest';
import type { StartOptions } from '../../service/start.ts';
import { openTestDb, type TestDb } from './digest-db.ts';
import { type BotUnderTest, type Harness, startHarness } from './slack-harness.ts';
import { addWorkspace, installWorkspace } from './slack-install.ts';
import { knowUsers } from './workspace-bot.ts';

export interface InstalledWorkspaces {
  h: Harness;
  db: TestDb;
  bot: BotUnderTest;
}

/** A workspace that installs the app, by its team id; or, for Enterprise Grid, the workspace an org-wide install is made from. */
export type Installing = string | { teamId: string; enterpriseId: string; orgWide: boolean };

export interface InstallOptions {
  /** Added to the fake Slack and installed, in this order. */
  workspaces: readonly Installing[];
  /** The key-encryption key the bot seals Linen keys and tokens with. */
  encryptionKey: string;
  /** The digest worker's clock and settings. */
  digests: StartOptions['digests'];
  /** The alert worker's clock (default: the worker on the system clock). */
  alerts?: StartOptions['alerts'];
  /** Builds the Linen service of each connected key (default: the service's own, with its pacing and shared answers). */
  createService?: StartOptions['createService'];
  /** More of the bot's environment, over the OAuth settings. */
  env?: Record<string, string | undefined>;
}

export function useInstalledWorkspaces(driver: 'pglite' | 'pg', o: InstallOptions): InstalledWorkspaces {
  const suite = {} as InstalledWorkspaces;
  beforeAll(async () => {
    const h = await startHarness();
    suite.h = h;
    knowUsers(h);
    for (const w of o.workspaces) {
      if (typeof w === 'string') addWorkspace(h.slack, w);
      else addWorkspace(h.slack, w.teamId, { enterpriseId: w.enterpriseId, orgWide: w.orgWide });
    }
    suite.db = await openTestDb(driver);
    await suite.db.executor.query('TRUNCATE slack_installations, workspace_connections CASCADE');
    suite.bot = await h.startBotWith(
      {
        SLACK_BOT_TOKEN: undefined,
        LINEN_API_KEY: undefined,
        SLACK_CLIENT_ID: h.slack.oauth.clientId,
        SLACK_CLIENT_SECRET: h.slack.oauth.clientSecret,
        SLACK_STATE_SECRET: 'state-secret-0123456789abcdef',
        SLACK_OAUTH_AUTHORIZE_URL: h.slack.authorizeUrl,
        LINEN_ENCRYPTION_KEY: o.encryptionKey,
        ...o.env,
      },
      { start: { database: suite.db.executor, digests: o.digests, alerts: o.alerts, createService: o.createService } },
    );
    const origin = `http://127.0.0.1:${suite.bot.bot.port}`;
    h.slack.oauth.redirectUrl = `${origin}/slack/oauth_redirect`;
    for (const w of o.workspaces) {
      expect((await installWorkspace(origin, typeof w === 'string' ? w : w.teamId)).status).toBe(200);
    }
    // Starting an embedded database (PGlite) is the slow part of this hook on a busy machine.
  }, 120_000);
  afterAll(async () => {
    await suite.h?.close();
    await suite.db?.close();
  });
  return suite;
}
