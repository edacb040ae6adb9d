/**
 * Alerts in installed workspaces (multi-workspace mode), on PGlite and on PostgreSQL: accounting alerts (`overdue`,
 * `budget`) follow the access rules of accounting answers, judged where the alert would post (refused in a channel
 * an admin did not allow, in a DM until allowed, and for another channel from an allowed one), with nothing saved;
 * allowed, an overdue alert posts in its channel with its own workspace's token; and another workspace cannot see,
 * pause or remove it.
 */
import { randomBytes } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { keyRefOf } from '../../../base/key-ref.ts';
import { LinenService } from '../../../chat/linen.ts';
import { createLinenClient } from '../../../shared/node.ts';
import { alertClock } from '../../support/alert-clock.ts';
import { customerNamed } from '../../support/alert-data.ts';
import { alertIdOf, plain } from '../../support/alert-scenarios.ts';
import { drivers } from '../../support/digest-db.ts';
import { useInstalledWorkspaces } from '../../support/installed-workspaces.ts';
import { allText, NOW } from '../../support/slack-harness.ts';
import { ADMIN, connectThroughModal } from '../../support/workspace-bot.ts';

const TEAM_A = 'T0ALERTA';
const TEAM_B = 'T0ALERTB';
const KEY_A = 'lk_live_demo_all_access';
const KEY_B = 'lk_live_demo_harbor_hotel';
const OPS = 'C0AOPS001';
const FINANCE = 'C0AFIN001';
const DM = 'D0ADMIN01';
const POLL_MS = 60_000;

describe.each(drivers)('alerts in installed workspaces (%s)', (driver) => {
  const clock = alertClock(NOW, POLL_MS);
  const suite = useInstalledWorkspaces(driver, {
    workspaces: [TEAM_A, TEAM_B],
    encryptionKey: randomBytes(32).toString('base64'),
    digests: { worker: false },
    alerts: { clock: clock.clock },
    env: { LINEN_TIMEZONE: undefined, ALERTS_POLL_SECONDS: String(POLL_MS / 1000) },
    // Each connected key's client reads afresh at every check, as the harness's own client does: the service's
    // clients share what they read for some seconds of real time, which the manual clock does not move.
    createService: (key) =>
      new LinenService({
        baseUrl: key.baseUrl,
        timeZone: key.timeZone,
        client: createLinenClient({
          apiKey: key.apiKey,
          baseUrl: key.baseUrl,
          timeZone: key.timeZone,
          pacing: false,
          maxRetries: 0,
          now: () => clock.now().getTime(),
        }),
      }),
  });
  const ask = async (text: string, channelId: string, teamId = TEAM_A) =>
    plain(allText(await suite.bot.ask(text, { teamId, channelId, userId: ADMIN })));
  const rows = async () =>
    JSON.stringify(
      await Promise.all(
        ['alerts', 'alert_checks', 'alert_posts'].map((t) => suite.db.executor.query(`SELECT * FROM ${t} ORDER BY 1`)),
      ),
    );
  const teamOfToken = (authorization: string | undefined) =>
    suite.h.slack.oauth.authTest(authorization?.replace(/^Bearer /, '') ?? '')?.team_id;

  beforeAll(async () => {
    await suite.db.executor.query('TRUNCATE alerts, alert_checks, alert_posts');
    suite.h.slack.channels.set(OPS, { name: 'a-ops', member: true });
    suite.h.slack.channels.set(FINANCE, { name: 'a-finance', member: true });
    for (const [teamId, apiKey] of [
      [TEAM_A, KEY_A],
      [TEAM_B, KEY_B],
    ] as const)
      expect((await connectThroughModal(suite.h, suite.bot, { teamId, apiKey })).response_action).toBe('update');
  });

  it('an accounting alert is refused where accounting answers may not appear, and nothing is saved', async () => {
    const before = await rows();
    expect(await ask('alert overdue', OPS)).toMatch(
      /^Accounting answers are not shown in this channel; a workspace admin can allow them here with access accounting allow\./,
    );
    expect(await ask('alert budget 10%', OPS)).toMatch(/^Accounting answers are not shown in this channel/);
    expect(await ask('alert overdue 30d dm', OPS)).toMatch(/^Accounting answers are not shown in direct messages/);
    expect(await ask('alert overdue', DM)).toMatch(/^Accounting answers are not shown in direct messages/);
    // For another channel: that channel is named, and where to allow it.
    expect(await ask('alert budget #a-finance', OPS)).toMatch(
      new RegExp(
        `^Accounting answers are not shown in <#${FINANCE}>; a workspace admin can allow them there with access accounting allow, typed in that channel\\.`,
      ),
    );
    expect(await rows()).toBe(before);
    // An operations alert is set there as anywhere.
    expect(await ask('alert short', OPS)).toMatch(/Alert set a\w{5}/);
  });

  it('allowed in a channel, an accounting alert is set for it (from there or from elsewhere) and posts with its workspace token', async () => {
    expect(await ask('access accounting allow', FINANCE)).toContain(`<#${FINANCE}>`);
    const id = alertIdOf(await ask('alert overdue 60d', FINANCE));
    const budget = alertIdOf(await ask('alert budget 10% #a-finance', OPS));
    for (const a of [id, budget])
      expect(await suite.bot.bot.alerts.store.getAlert(a)).toMatchObject({
        orgId: TEAM_A,
        channelId: FINANCE,
        keyRef: keyRefOf(KEY_A),
      });
    await clock.check();
    const lakeshore = await customerNamed(suite.h.sandbox, 'Lakeshore Rehabilitation Centre');
    const { invoice } = suite.h.sandbox.changes.addInvoice({
      customer_id: lakeshore.id,
      subtotal_cents: 500_000,
      issued_on: '2026-07-01',
      due_on: '2026-08-01',
    });
    const since = suite.h.slack.calls.length;
    await clock.check();
    const posts = suite.h.slack.calls
      .slice(since)
      .filter((c) => c.method === 'chat.postMessage' && c.params.channel === FINANCE);
    expect(posts).toHaveLength(1);
    expect(String(posts[0]!.params.text)).toContain(invoice.invoice_number);
    expect(teamOfToken(posts[0]!.authorization)).toBe(TEAM_A);
  });

  it("another workspace neither lists nor manages a workspace's alerts", async () => {
    const [alert] = await suite.bot.bot.alerts.store.listAlerts({ orgId: TEAM_A });
    const before = await rows();
    expect(await ask('alerts', OPS, TEAM_B)).toContain('No alerts yet.');
    for (const verb of ['pause', 'resume', 'test', 'remove'])
      expect(await ask(`alert ${verb} ${alert!.id}`, OPS, TEAM_B)).toMatch(
        new RegExp(`^There is no alert ${alert!.id}; alerts lists them\\.`),
      );
    expect(await rows()).toBe(before);
    expect(await ask('alerts', OPS)).toContain(alert!.id);
  });
});
