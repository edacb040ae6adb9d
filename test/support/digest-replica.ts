/**
 * One bot replica for the multi-process tests: the digest worker on a shared PostgreSQL schema, its clock read
 * from the `digest_test_clock` table, posting to the fake Slack (SLACK_URL) or, with PLATFORM=teams, to the fake Bot
 * Connector with a token of the fake token endpoint (TEAMS_*). STALL=before-post|after-post makes it hang at that
 * point of its first post (printing `STALLED <run id>`), to be killed there.
 */

import { clientsByKeyRef } from '../../base/key-ref.ts';
import { openPg } from '../../base/store/pg.ts';
import { ManualClock } from '../../chat/digests/clock.ts';
import { silentLogger } from '../../chat/digests/engine.ts';
import { startDigestWorker } from '../../chat/digests/index.ts';
import { digestStoreOver } from '../../chat/digests/storage/index.ts';
import type { DigestRun } from '../../chat/digests/storage/types.ts';
import { migrateServiceDatabase } from '../../service/store.ts';
import { createLinenClient } from '../../shared/node.ts';
import { slackDeliveries } from '../../slack-bot/digests/delivery.ts';
import { connectors } from '../../teams-bot/connector.ts';
import { teamsDeliveries } from '../../teams-bot/digests/delivery.ts';
import { botTokens } from '../../teams-bot/token.ts';
import { webClient } from './digest-env.ts';

const env = process.env;
const db = await openPg({ connectionString: env.DATABASE_URL!, schema: env.DIGEST_SCHEMA!, max: 4 });
const store = digestStoreOver(await migrateServiceDatabase(db));
const readClock = async () => new Date((await db.query<{ at: Date }>('SELECT at FROM digest_test_clock'))[0]!.at);
const clock = new ManualClock(await readClock());
const poll = setInterval(
  () =>
    void readClock().then(
      (d) => clock.set(d),
      () => {},
    ),
  15,
);

const linenClientFor = clientsByKeyRef([env.LINEN_API_KEY!], (apiKey) =>
  createLinenClient({ apiKey, baseUrl: env.LINEN_BASE_URL!, timeZone: 'America/Chicago', pacing: false }),
);
const stall = (run: DigestRun) => {
  process.stdout.write(`STALLED ${run.id}\n`);
  return new Promise<void>(() => {});
};
const deliveries =
  env.PLATFORM === 'teams'
    ? teamsDeliveries({
        connectorFor: connectors(
          botTokens({
            clientId: env.TEAMS_CLIENT_ID!,
            clientSecret: env.TEAMS_CLIENT_SECRET!,
            tenantId: env.TEAMS_TENANT_ID!,
            loginUrl: env.TEAMS_LOGIN_URL!,
          }),
          `28:${env.TEAMS_CLIENT_ID}`,
        ),
      })
    : slackDeliveries(webClient(env.SLACK_URL!));
const worker = startDigestWorker({
  store,
  deliveries,
  linenClientFor,
  clock,
  tickMs: 20,
  pacingMs: 0,
  leaseMs: Number(env.LEASE_MS ?? 60_000),
  workerId: env.WORKER_ID,
  logger: silentLogger,
  retry: { baseDelayMs: 10 },
  hooks: {
    beforePost: env.STALL === 'before-post' ? stall : undefined,
    afterPost: env.STALL === 'after-post' ? stall : undefined,
  },
});
process.stdout.write('READY\n');
process.on('SIGTERM', async () => {
  clearInterval(poll);
  await worker.stop();
  await linenClientFor.close();
  await store.drain();
  await db.close();
  process.exit(0);
});
