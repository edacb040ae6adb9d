/**
 * Alerts on three bot processes sharing PostgreSQL (test/support/alert-replica.ts, driven by the shared clock of
 * test/support/replica-cluster.ts): over rounds of checks with the sandbox's data changed in between, each
 * occurrence is posted exactly once, whichever replica takes the key's check and the post; and a replica killed
 * after its post went out, before it recorded it: the replica that takes the post over finds the message in the
 * channel's history (by the post's id in its metadata) and does not post it again.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keyRefOf } from '../../../base/key-ref.ts';
import type { SqlExecutor } from '../../../base/store/sql.ts';
import { AlertStore } from '../../../chat/alerts/storage/store.ts';
import type { NewAlert } from '../../../chat/alerts/storage/types.ts';
import { type Sandbox, startSandbox } from '../../../sandbox/index.ts';
import { closableCarts, customerNamed, TODAY, TZ } from '../../support/alert-data.ts';
import { PG_URL } from '../../support/digest-db.ts';
import { type FakeSlack, startFakeSlack } from '../../support/digest-slack.ts';
import { replicaCluster } from '../../support/replica-cluster.ts';
import { validateMessage } from '../../support/slack-blockkit.ts';

const KEY = 'lk_live_demo_all_access';
const POLL_MS = 10_000;
const SCRIPT = new URL('../../support/alert-replica.ts', import.meta.url).pathname;

/** Checks due or under way, and posts not delivered yet, at the clock's time: one statement, one snapshot. */
const unsettled = async (db: SqlExecutor, at: Date) =>
  Number(
    (
      await db.query<{ n: number }>(
        `SELECT (SELECT count(*) FROM alert_posts WHERE status IN ('pending', 'claimed', 'posting'))
              + (SELECT count(*) FROM alert_checks WHERE next_at <= $1 OR claimed_by IS NOT NULL) AS n`,
        [at],
      )
    )[0]!.n,
  );

describe.skipIf(!PG_URL)('alerts on three bot processes sharing PostgreSQL', () => {
  let sandbox: Sandbox;
  let slack: FakeSlack;
  const cluster = replicaCluster({
    startAt: `${TODAY}T18:00:00Z`,
    script: SCRIPT,
    unsettled,
    env: () => ({
      SLACK_URL: slack.url,
      LINEN_BASE_URL: sandbox.baseUrl,
      LINEN_API_KEY: KEY,
      POLL_MS: String(POLL_MS),
    }),
  });
  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0, today: TODAY, timeZone: TZ, rateLimit: { limit: 1e6, windowMs: 60_000 } });
    slack = await startFakeSlack();
    slack.now = () => cluster.now();
  });
  afterAll(async () => {
    await cluster.close();
    await Promise.all([sandbox?.close(), slack?.close()]);
  });

  /** An alert on the sandbox key, first checked one poll from now: its first check records what is true, quietly. */
  const alertOf = (kind: string, channelId: string, more: Partial<NewAlert> = {}): NewAlert => ({
    platform: 'slack',
    orgId: 'T0LINEN',
    keyRef: keyRefOf(KEY),
    kind,
    options: {},
    customerIds: [],
    timeZone: TZ,
    channelId,
    channelName: null,
    serviceUrl: null,
    direct: false,
    createdBy: 'U0OWNER',
    seen: null,
    ...more,
  });
  /** The next round: the clock a poll interval (and a second) on, and everything due done. */
  const round = async (s: { db: SqlExecutor; setClock(at: number): Promise<void> }) => {
    await s.setClock(cluster.now() + POLL_MS + 1000);
    await cluster.settle(s.db);
  };

  it('rounds of checks with the data changing: each occurrence posted exactly once by the three replicas', async () => {
    const s = await cluster.setup();
    const store = new AlertStore(s.db);
    const start = new Date(cluster.now());
    const first = new Date(cluster.now() + POLL_MS);
    const mercy = await customerNamed(sandbox, 'Mercy General Hospital');
    const hotel = await customerNamed(sandbox, 'Harborview Hotel');
    const alerts = await Promise.all(
      [
        alertOf('signal', 'C0REP1', { options: { minSeverity: 'high' } }),
        alertOf('short', 'C0REP1', { options: { minMissing: 1 } }),
        alertOf('signal', 'C0REP2'),
        alertOf('signal', 'C0REP2', { customerIds: [mercy.id] }),
        alertOf('ticket', 'C0REP3', { customerIds: [hotel.id] }),
      ].map((a) => store.createAlert(a, start, first)),
    );
    const replicas = await Promise.all(['r1', 'r2', 'r3'].map((id) => cluster.spawn(s.schema, id).ready));

    // The first check records what is true, quietly.
    await round(s);
    expect(slack.messages).toEqual([]);
    expect((await store.listAlerts()).every((a) => a.seen !== null)).toBe(true);

    // A signal, a cart closing short, a ticket opened; then a few quiet rounds; then the signal resolved and
    // reopened and the ticket acknowledged.
    const signal = sandbox.changes.addSignal({
      kind: 'shortfall_streak',
      severity: 'high',
      customer_id: mercy.id,
      summary: 'Bath towels short at Mercy four days running',
    });
    const [cart] = await closableCarts(sandbox);
    sandbox.changes.closeCartCountShort({ cart_id: cart!.id, item_id: cart!.itemId, short_by: 6 });
    const ticket = sandbox.changes.openTicket({ customer_id: hotel.id, kind: 'stain', subject: 'Stained robes' });
    await round(s);
    await round(s);
    await round(s);
    sandbox.changes.changeSignal(signal.id, { status: 'resolved' });
    await round(s);
    sandbox.changes.changeSignal(signal.id, { status: 'open' });
    sandbox.changes.changeTicket(ticket.id, { status: 'acknowledged' });
    await round(s);
    await round(s);

    // Told: the signal twice to each of the three signal alerts, the cart once, the ticket twice.
    const posts = await store.listPosts();
    const toldBy = (id: string) => posts.filter((p) => p.alertId === id).map((p) => p.told.map((o) => o.id));
    const [high, short, any, mercyOnly, tickets] = alerts.map((a) => a.id);
    for (const a of [high!, any!, mercyOnly!])
      expect(toldBy(a)).toEqual([[`signal:${signal.id}`], [`signal:${signal.id}`]]);
    expect(toldBy(short!)).toHaveLength(1);
    expect(toldBy(tickets!)).toEqual([[`ticket:${ticket.id}:new`], [`ticket:${ticket.id}:acknowledged`]]);
    expect(posts.map((p) => p.status)).toEqual(Array(9).fill('posted'));

    // Each post is one message in its alert's channel, carrying its id; nothing else was posted.
    expect(slack.messages).toHaveLength(9);
    const channelOf = new Map(alerts.map((a) => [a.id, a.channelId]));
    for (const p of posts) {
      const sent = slack.messages.filter((m) => m.metadata?.event_payload.run_id === p.id);
      expect(sent).toHaveLength(1);
      expect(sent[0]!.channel).toBe(channelOf.get(p.alertId));
      expect(sent[0]!.ts).toBe(p.messageTs);
      expect(validateMessage(sent[0]!, `post ${p.id}`)).toEqual([]);
    }
    for (const r of replicas) r.kill('SIGTERM');
  }, 90_000);

  it('a replica killed after its post went out, before it recorded it: found in the channel, not posted twice', async () => {
    const s = await cluster.setup();
    const store = new AlertStore(s.db);
    const channel = 'C0REPKILL';
    const alert = await store.createAlert(
      alertOf('signal', channel),
      new Date(cluster.now()),
      new Date(cluster.now() + POLL_MS),
    );
    const doomed = cluster.spawn(s.schema, 'doomed', { STALL: 'after-post', LEASE_MS: '60000' });
    await doomed.ready;
    await round(s);
    const mercy = await customerNamed(sandbox, 'Mercy General Hospital');
    sandbox.changes.addSignal({
      kind: 'shortfall_streak',
      severity: 'medium',
      customer_id: mercy.id,
      summary: 'Gowns short at Mercy since Monday',
    });
    await s.setClock(cluster.now() + POLL_MS + 1000);
    const stalled = await doomed.stalled();
    doomed.child.kill('SIGKILL');
    expect(slack.posts(channel)).toHaveLength(1);
    const [post] = await store.listPosts({ alertId: alert.id });
    expect(stalled).toBe(`STALLED ${post!.id}`);
    expect(post!.status).toBe('posting');

    const rescuer = cluster.spawn(s.schema, 'rescuer', { LEASE_MS: '60000' });
    await rescuer.ready;
    // The dead replica's lease on the post ends.
    await s.setClock(cluster.now() + 61_000);
    await cluster.settle(s.db);
    expect(await store.listPosts({ alertId: alert.id })).toMatchObject([
      { id: post!.id, status: 'posted', claimedBy: 'rescuer', messageTs: slack.posts(channel)[0]!.ts },
    ]);
    expect(slack.posts(channel)).toHaveLength(1);
    rescuer.child.kill('SIGTERM');
  }, 60_000);
});
