/**
 * One bot replica for the alert replica tests: the alert worker on a shared PostgreSQL schema, its clock (and the
 * timers its ticks wait on) read from the `digest_test_clock` table, checking with the sandbox key (LINEN_API_KEY at
 * LINEN_BASE_URL) and posting to the fake Slack (SLACK_URL). STALL=after-post makes it hang once its first post
 * went out, before recording it (printing `STALLED <post id>`), to be killed there.
 */
import { clientsByKeyRef } from '../../base/key-ref.ts';
import { openPg } from '../../base/store/pg.ts';
import { ALERT_KIND_REGISTRY } from '../../chat/alerts/check.ts';
import { alertReads } from '../../chat/alerts/reads.ts';
import { AlertStore } from '../../chat/alerts/storage/store.ts';
import { startAlertWorker } from '../../chat/alerts/worker.ts';
import { ManualClock } from '../../chat/digests/clock.ts';
import { ChannelPacer } from '../../chat/digests/delivery/channel-pacer.ts';
import type { ExecutableRun } from '../../chat/digests/delivery/run-executor.ts';
import { migrateServiceDatabase } from '../../service/store.ts';
import { createLinenClient } from '../../shared/node.ts';
import { slackDeliveries } from '../../slack-bot/digests/delivery.ts';
import { webClient } from './digest-env.ts';

const env = process.env;
const db = await openPg({ connectionString: env.DATABASE_URL!, schema: env.DIGEST_SCHEMA!, max: 4 });
const store = new AlertStore(await migrateServiceDatabase(db));
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
  createLinenClient({
    apiKey,
    baseUrl: env.LINEN_BASE_URL!,
    timeZone: 'America/Chicago',
    pacing: false,
    now: () => clock.now().getTime(),
  }),
);
const stall = (run: ExecutableRun) => {
  process.stdout.write(`STALLED ${run.id}\n`);
  return new Promise<void>(() => {});
};
const worker = startAlertWorker({
  store,
  kinds: ALERT_KIND_REGISTRY,
  deliveries: slackDeliveries(webClient(env.SLACK_URL!)),
  linenClientFor,
  readsOf: (client, now) => alertReads(client, { now }),
  pollMs: Number(env.POLL_MS),
  clock,
  timers: clock,
  pacer: new ChannelPacer(0),
  workerId: env.WORKER_ID,
  leaseMs: Number(env.LEASE_MS ?? 60_000),
  retry: { baseDelayMs: 10 },
  hooks: { afterPost: env.STALL === 'after-post' ? stall : undefined },
});
process.stdout.write('READY\n');
process.on('SIGTERM', async () => {
  clearInterval(poll);
  await worker.stop();
  await linenClientFor.close();
  await db.close();
  process.exit(0);
});
