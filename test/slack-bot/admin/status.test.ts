/**
 * `npm run admin -- status` on PGlite and (with TEST_DATABASE_URL) PostgreSQL, found through the bot's own
 * settings: two installed workspaces with their keys, digests due, paused, failing and retrying; the text and
 * JSON outputs list them with each key's last four and never a key or token; a key's "last answered" moves when a
 * command of its workspace gets an answer from the API, at most once a minute. The alerts are listed as the digests
 * are, with their keys' last checks and the failing ones; a store of a version before alerts has none. While the
 * service runs on the store
 * (its own process, as `npm start`), the command answers the same report: asked of the service on PGlite, whose
 * folder it holds, and read directly on PostgreSQL.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ServiceLogger } from '../../../base/logging/logger.ts';
import type { SqlExecutor } from '../../../base/store/sql.ts';
import { answerCommand, type CommandRequest, type PlaceDeps } from '../../../chat/connections/answer-in-place.ts';
import { ANSWERED_WRITE_EVERY_MS, ConnectionStore } from '../../../chat/connections/connection-store.ts';
import { connectedWorkspaceLinen } from '../../../chat/connections/place-linen.ts';
import { LinenService } from '../../../chat/linen.ts';
import { runAdmin } from '../../../service/admin/run.ts';
import { createLinenClient, type HttpResponse } from '../../../shared/node.ts';
import { SLACK_SURFACE } from '../../../slack-bot/surface.ts';
import { postponeDigests, type ServiceProcess, startService } from '../../support/admin-service.ts';
import {
  type AdminStore,
  adminStore,
  BASE_URL,
  box,
  NOW,
  SECRETS,
  type Seeded,
  type SeededAlerts,
  seed,
  seedAlerts,
  TEAM_A,
  TEAM_B,
} from '../../support/admin-store.ts';
import { secretsIn } from '../../support/db-dump.ts';
import { drivers } from '../../support/digest-db.ts';
import { findLeaks } from '../../support/secret-leaks.ts';

async function status(env: Record<string, string>, now: Date, ...args: string[]) {
  let out = '';
  let err = '';
  const code = await runAdmin(['status', ...args], env, {
    out: (t) => (out += t),
    err: (t) => (err += t),
    now: () => now,
  });
  return { code, out, err };
}

function expectNoSecret(text: string): void {
  expect(secretsIn(text, SECRETS)).toEqual([]);
  expect(findLeaks(SECRETS, [{ source: 'admin output', text }])).toEqual([]);
}

const logger = { debug() {}, info() {}, warn() {}, error() {} } as unknown as ServiceLogger;

/** An API that answers every listing with nothing: `/linen signals` is then a data answer. */
function emptyApi(apiKey: string) {
  const empty: HttpResponse = {
    status: 200,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ data: [], pagination: { cursor: null, has_more: false }, request_id: 'req_empty' }),
  };
  return createLinenClient({
    apiKey,
    baseUrl: BASE_URL,
    timeZone: 'America/Chicago',
    transport: { request: async () => empty },
  });
}

describe.each(drivers)('npm run admin -- status on %s', (driver) => {
  let store: AdminStore;
  let ids: Seeded;
  beforeAll(async () => {
    store = adminStore(driver);
    const db = await store.open();
    try {
      ids = await seed(db);
    } finally {
      await db.close();
    }
  }, 120_000);
  afterAll(async () => {
    await store?.remove();
  });

  it('prints the workspaces, keys by their last four, subscriptions and the failing ones, in aligned tables', async () => {
    const { code, out, err } = await status(store.env, NOW);
    expect({ code, err }).toEqual({ code: 0, err: '' });
    expectNoSecret(out);
    const lines = out.split('\n');
    const section = (title: string) => {
      const start = lines.findIndex((l) => l.startsWith(`${title} (`));
      const end = lines.indexOf('', start);
      return lines.slice(start, end === -1 ? undefined : end);
    };
    expect(lines[0]).toBe(
      `linen-connect status at 2026-11-20T18:00:00Z, store: ${driver === 'pg' ? 'PostgreSQL at' : 'PGlite in'} ${lines[0]!.split(/ (at|in) /).at(-1)}`,
    );
    const workspaces = section('Workspaces');
    expect(workspaces[0]).toBe('Workspaces (2)');
    expect(workspaces[1]).toMatch(/^PLATFORM +WORKSPACE +ORGANIZATION +INSTALL +INSTALLED +KEYS +DIGESTS$/);
    expect(workspaces[2]).toMatch(/^slack +T0AAA +- +workspace +2026-11-18T18:00:00Z \(2 d ago\) +2 +2$/);
    expect(workspaces[3]).toMatch(/^slack +T0BBB +- +workspace +2026-11-18T18:00:00Z \(2 d ago\) +1 +2$/);

    const connections = section('Connections');
    expect(connections[0]).toBe('Connections (3)');
    expect(connections.slice(2)).toEqual([
      expect.stringMatching(
        /^slack +T0AAA +workspace +…a1b2 +https:\/\/api\.example\.com\/v1 .* \(1 d ago\) +not yet$/,
      ),
      expect.stringMatching(/^slack +T0AAA +#C0FIN +…9f3c .* +not yet$/),
      expect.stringMatching(/^slack +T0BBB +workspace +…c4d5 .* +not yet$/),
    ]);

    const subscriptions = section('Subscriptions');
    expect(subscriptions[0]).toBe('Subscriptions (4)');
    const row = (id: string) => subscriptions.find((l) => l.includes(id));
    expect(row(ids.due)).toMatch(
      /#C0OPS +daily 07:00 America\/Chicago +…a1b2 +active +2026-11-21T07:00:00Z \(in 13 h\) +posted 2026-11-20T07:00:00Z \(11 h ago\)/,
    );
    expect(row(ids.paused)).toMatch(/receivables +#C0FIN +mon 07:00 America\/Chicago +…9f3c +paused +- +none yet/);
    expect(row(ids.gone)).toMatch(/#C0GONE .* +…c4d5 +failing +- +failed 2026-11-20T07:00:00Z \(11 h ago\)/);
    expect(row(ids.retrying)).toMatch(/#C0LATE +daily 11:00 .* +active +2026-11-21T07:00:00Z \(in 13 h\) +none yet/);
    // Every column starts at the same place on every line of a table.
    const at = (l: string) => l.indexOf('#C0');
    expect(new Set(subscriptions.slice(2).map(at)).size).toBe(1);

    const failing = section('Failing');
    expect(failing[0]).toBe('Failing (2)');
    expect(failing.find((l) => l.includes(ids.gone))).toMatch(
      /T0BBB .* #C0GONE +failing +2026-11-20T07:00:00Z \(11 h ago\) +channel #C0GONE no longer exists or the bot cannot see it \(channel_not_found\)$/,
    );
    expect(failing.find((l) => l.includes(ids.retrying))).toMatch(
      /#C0LATE +retrying +2026-11-20T17:00:00Z \(1 h ago\) +its due digest failed and is tried again: Slack answered 500/,
    );
  }, 60_000);

  it('--json is one document with the same facts, dates in UTC ISO', async () => {
    const { code, out } = await status(store.env, NOW, '--json');
    expect(code).toBe(0);
    expectNoSecret(out);
    const doc = JSON.parse(out);
    expect(doc).toMatchObject({ generatedAt: '2026-11-20T18:00:00Z', empty: false, environmentKey: null });
    expect(doc.workspaces).toEqual([
      expect.objectContaining({
        platform: 'slack',
        workspace: TEAM_A,
        install: 'workspace',
        keys: 2,
        subscriptions: 2,
      }),
      expect.objectContaining({
        platform: 'slack',
        workspace: TEAM_B,
        install: 'workspace',
        keys: 1,
        subscriptions: 2,
      }),
    ]);
    expect(
      doc.connections.map((c: { workspace: string; place: string; key: string }) => [c.workspace, c.place, c.key]),
    ).toEqual([
      [TEAM_A, '*', '…a1b2'],
      [TEAM_A, 'C0FIN', '…9f3c'],
      [TEAM_B, '*', '…c4d5'],
    ]);
    expect(doc.connections[0]).toMatchObject({ connectedAt: '2026-11-19T18:00:00Z', lastAnsweredAt: null });
    const byId = new Map(doc.subscriptions.map((s: { id: string }) => [s.id, s]));
    expect(byId.get(ids.due)).toMatchObject({
      state: 'active',
      key: '…a1b2',
      nextRunAt: '2026-11-21T07:00:00Z',
      lastRun: { status: 'posted', at: '2026-11-20T07:00:00Z', error: null },
    });
    expect(byId.get(ids.paused)).toMatchObject({ state: 'paused', nextRunAt: null, lastRun: null });
    expect(byId.get(ids.gone)).toMatchObject({ state: 'failing', lastRun: { status: 'failed' } });
    expect(doc.failing).toEqual([
      expect.objectContaining({
        id: ids.gone,
        workspace: TEAM_B,
        state: 'failing',
        code: 'channel_not_found',
        reason: 'channel #C0GONE no longer exists or the bot cannot see it',
      }),
      expect.objectContaining({ id: ids.retrying, state: 'retrying', since: '2026-11-20T17:00:00Z' }),
    ]);
  }, 60_000);

  it("a command answered by the API moves its key's last answered, written at most once a minute", async () => {
    const db = await store.open();
    let writes = 0;
    const counted: SqlExecutor = {
      ...db,
      query(sql, params) {
        if (/SET last_answered_at/.test(sql)) writes++;
        return db.query(sql, params);
      },
    };
    let clock = NOW.getTime();
    try {
      const connections = new ConnectionStore({ db: counted, secrets: box });
      const deps: PlaceDeps = {
        workspaces: connectedWorkspaceLinen({
          connections,
          createService: (k) =>
            new LinenService({ client: emptyApi(k.apiKey), baseUrl: k.baseUrl, timeZone: k.timeZone }),
        }),
        connect: { connections, adminUserIds: [], allowedBaseUrls: [BASE_URL], defaultTimeZone: undefined },
        logger,
        now: () => clock,
      };
      const ask = (text: string) =>
        answerCommand(
          {
            text,
            userId: 'U0MEMBER',
            channelId: 'C0OPS',
            orgId: TEAM_A,
            platform: 'slack',
            surface: SLACK_SURFACE,
          } satisfies CommandRequest,
          deps,
        );
      const lastAnswered = async () =>
        (
          await db.query<{ at: Date | string | null }>(
            `SELECT last_answered_at AS at FROM workspace_keys WHERE team_id = $1 AND place = '*'`,
            [TEAM_A],
          )
        )[0]!.at;

      // Help needs no API: nothing is recorded.
      expect((await ask('help'))?.shareable).toBe(false);
      expect(writes).toBe(0);
      expect((await ask('signals'))?.shareable).toBe(true);
      await vi.waitFor(async () => expect(new Date((await lastAnswered())!).toISOString()).toBe(NOW.toISOString()));
      // A burst within the minute: every command answered, no write.
      clock += 30_000;
      await Promise.all(Array.from({ length: 20 }, () => ask('signals')));
      expect(writes).toBe(1);
      clock = NOW.getTime() + ANSWERED_WRITE_EVERY_MS + 1_000;
      await ask('signals');
      await vi.waitFor(() => expect(writes).toBe(2));
      await vi.waitFor(async () =>
        expect(new Date((await lastAnswered())!).toISOString()).toBe('2026-11-20T18:01:01.000Z'),
      );
      await deps.workspaces.close();
    } finally {
      await db.close();
    }

    const later = new Date(NOW.getTime() + 5 * 60_000);
    const doc = JSON.parse((await status(store.env, later, '--json')).out);
    expect(
      doc.connections.map((c: { key: string; lastAnsweredAt: string | null }) => [c.key, c.lastAnsweredAt]),
    ).toEqual([
      ['…a1b2', '2026-11-20T18:01:01Z'],
      ['…9f3c', null],
      ['…c4d5', null],
    ]);
    const text = (await status(store.env, later)).out;
    expect(text).toMatch(/T0AAA +workspace +…a1b2 .* 2026-11-20T18:01:01Z \(3 min ago\)\n/);
    expect(text).toMatch(new RegExp(`${TEAM_B} +workspace +…c4d5 .* not yet\\n`));
    expectNoSecret(text);
  }, 90_000);
});

/** The lines of a section of the text output, its title first. */
function sectionOf(out: string, title: string): string[] {
  const lines = out.split('\n');
  const start = lines.findIndex((l) => l.startsWith(`${title} (`));
  const end = lines.indexOf('', start);
  return lines.slice(start, end === -1 ? undefined : end);
}

describe.each(drivers)('alerts in npm run admin -- status on %s', (driver) => {
  let store: AdminStore;
  let ids: Seeded;
  let alerts: SeededAlerts;
  beforeAll(async () => {
    store = adminStore(driver);
    const db = await store.open();
    try {
      ids = await seed(db);
      alerts = await seedAlerts(db);
    } finally {
      await db.close();
    }
  }, 120_000);
  afterAll(async () => {
    await store?.remove();
  });

  it('lists each alert with what it watches, where it posts, its key, state and last check; the failing ones with why', async () => {
    const { code, out, err } = await status(store.env, NOW);
    expect({ code, err }).toEqual({ code: 0, err: '' });
    expectNoSecret(out);
    // The digests are listed as before.
    expect(sectionOf(out, 'Subscriptions')[0]).toBe('Subscriptions (4)');
    expect(sectionOf(out, 'Failing')[0]).toBe('Failing (2)');
    expect(sectionOf(out, 'Subscriptions').some((l) => l.includes(ids.due))).toBe(true);

    const listed = sectionOf(out, 'Alerts');
    expect(listed[0]).toBe('Alerts (5)');
    expect(listed[1]).toMatch(/^PLATFORM +WORKSPACE +ID +KIND +WATCHES +POSTS IN +KEY +STATE +LAST FIRED +LAST CHECK$/);
    const row = (id: string) => listed.find((l) => l.includes(` ${id} `));
    expect(row(alerts.checked)).toMatch(
      /^slack +T0AAA +\w+ +short +carts closing at least 5 pieces short at cust_mercy › ICU +#C0OPS +…a1b2 +active +2026-11-20T17:00:00Z \(1 h ago\) +2026-11-20T17:55:00Z \(5 min ago\), 3 requests$/,
    );
    expect(row(alerts.paused)).toMatch(
      /^slack +T0AAA +\w+ +overdue +invoices 60 days or more overdue at every customer +dm U0ALICE +…9f3c +paused +not yet +none yet \(due 2026-11-20T18:10:00Z \(in 10 min\)\)$/,
    );
    expect(row(alerts.gone)).toMatch(
      / signal +high shortfall signals at every customer +#C0GONE +…c4d5 +failing +not yet /,
    );
    expect(row(alerts.retrying)).toMatch(
      / ticket +quality tickets opened or changing status at every customer +#C0LATE +…c4d5 +active /,
    );
    expect(row(alerts.unread)).toMatch(
      / budget +.* +#C0OPS +not connected +active +not yet +2026-11-20T17:58:00Z \(2 min ago\), could not read: no configured API key matches this key reference$/,
    );
    // Every column starts at the same place on every line of the table.
    const postsAt = (l: string) => (l.startsWith('PLATFORM') ? l.indexOf('POSTS IN') : l.search(/ (#C0|dm U)/) + 1);
    expect(new Set(listed.slice(1).map(postsAt)).size).toBe(1);

    const failing = sectionOf(out, 'Failing alerts');
    expect(failing[0]).toBe('Failing alerts (3)');
    expect(failing[1]).toMatch(/^PLATFORM +WORKSPACE +ID +POSTS IN +STATE +SINCE +REASON$/);
    expect(failing.find((l) => l.includes(alerts.gone))).toMatch(
      /^slack +T0BBB +\w+ +#C0GONE +failing +2026-11-20T15:00:00Z \(3 h ago\) +channel #C0GONE no longer exists or the bot cannot see it \(channel_not_found\)$/,
    );
    expect(failing.find((l) => l.includes(alerts.retrying))).toMatch(
      /#C0LATE +retrying +2026-11-20T17:00:00Z \(1 h ago\) +its post failed and is tried again: Slack answered 500 Internal Server Error$/,
    );
    expect(failing.find((l) => l.includes(alerts.unread))).toMatch(
      /#C0OPS +retrying +2026-11-20T17:58:00Z \(2 min ago\) +its key's last check could not read, and the next one reads again: no configured API key matches this key reference$/,
    );
    expect(failing.some((l) => l.includes(alerts.checked) || l.includes(alerts.paused))).toBe(false);
  }, 60_000);

  it('--json carries the same alerts, dates in UTC ISO', async () => {
    const { code, out } = await status(store.env, NOW, '--json');
    expect(code).toBe(0);
    expectNoSecret(out);
    const doc = JSON.parse(out);
    const byId = new Map(doc.alerts.map((a: { id: string }) => [a.id, a]));
    expect(byId.get(alerts.checked)).toEqual({
      platform: 'slack',
      id: alerts.checked,
      workspace: TEAM_A,
      kind: 'short',
      watches: 'carts closing at least 5 pieces short at cust_mercy › ICU',
      postsIn: '#C0OPS',
      key: '…a1b2',
      state: 'active',
      lastFiredAt: '2026-11-20T17:00:00Z',
      lastCheck: { at: '2026-11-20T17:55:00Z', requests: 3, error: null, nextAt: '2026-11-20T18:10:00Z' },
    });
    expect(byId.get(alerts.paused)).toMatchObject({ postsIn: 'dm U0ALICE', state: 'paused', lastFiredAt: null });
    expect(byId.get(alerts.unread)).toMatchObject({
      key: 'not connected',
      lastCheck: {
        at: '2026-11-20T17:58:00Z',
        requests: null,
        error: 'no configured API key matches this key reference',
      },
    });
    expect(
      doc.failingAlerts.map((f: { id: string; state: string; code: string | null }) => [f.id, f.state, f.code]),
    ).toEqual([
      [alerts.gone, 'failing', 'channel_not_found'],
      [alerts.retrying, 'retrying', null],
      [alerts.unread, 'retrying', null],
    ]);
    expect(doc.failing).toHaveLength(2);
  }, 60_000);

  it('a store of a version before alerts is read as far as it goes: no alert, the rest as it is', async () => {
    const older = adminStore(driver);
    try {
      const db = await older.open();
      try {
        // open() migrates fully: the alert tables go, as a store made before them never had them.
        await db.query('DROP TABLE alert_posts, alert_checks, alerts');
        await seed(db);
      } finally {
        await db.close();
      }
      const { code, out, err } = await status(older.env, NOW);
      expect({ code, err }).toEqual({ code: 0, err: '' });
      expect(out).toContain('\nAlerts (0)\nNo alert is set.\n');
      expect(out).toContain('\nFailing alerts (0)\nNo alert is failing.\n');
      expect(sectionOf(out, 'Subscriptions')[0]).toBe('Subscriptions (4)');
      const doc = JSON.parse((await status(older.env, NOW, '--json')).out);
      expect(doc).toMatchObject({ alerts: [], failingAlerts: [] });
      expect(doc.subscriptions).toHaveLength(4);
    } finally {
      await older.remove();
    }
  }, 120_000);
});

describe.each(drivers)('npm run admin -- status while the service runs on %s', (driver) => {
  let store: AdminStore;
  let ids: Seeded;
  let service: ServiceProcess | undefined;
  beforeAll(async () => {
    store = adminStore(driver);
    const db = await store.open();
    try {
      ids = await seed(db);
      await seedAlerts(db);
      await postponeDigests(db);
    } finally {
      await db.close();
    }
  }, 120_000);
  afterAll(async () => {
    await service?.kill();
    await store?.remove();
  });

  it('answers the same report as the store read once the service has stopped, text and --json', async () => {
    const now = new Date();
    service = await startService(store.env);
    const liveText = await status(store.env, now);
    const liveJson = await status(store.env, now, '--json');
    expect(await service.stop()).toBe(0);
    const text = await status(store.env, now);
    const json = await status(store.env, now, '--json');

    for (const r of [liveText, liveJson, text, json])
      expect({ code: r.code, err: r.err }).toEqual({ code: 0, err: '' });
    for (const r of [liveText, liveJson]) expectNoSecret(r.out);
    const where = (out: string) => /store: (.*)\n/.exec(out)?.[1];
    const directly = where(text.out)!;
    expect(directly).toMatch(driver === 'pg' ? /^PostgreSQL at / : /^PGlite in \S+digests$/);
    // On PGlite the running service answered (the folder was its alone); PostgreSQL is read directly either way.
    const live = driver === 'pg' ? directly : `${directly}, read by the running service (pid ${service.pid})`;
    expect(where(liveText.out)).toBe(live);
    expect(liveText.out).toBe(text.out.replace(directly, live));
    expect(JSON.parse(liveJson.out)).toEqual({ ...JSON.parse(json.out), store: live });

    const lines = liveText.out.split('\n');
    for (const title of ['Workspaces (2)', 'Connections (3)', 'Subscriptions (4)', 'Failing (2)'])
      expect(lines).toContain(title);
    // The alerts come over the socket as read: their dates and last checks too.
    for (const title of ['Alerts (5)', 'Failing alerts (3)']) expect(lines).toContain(title);
    const doc = JSON.parse(liveJson.out);
    expect(doc.workspaces.map((w: { workspace: string }) => w.workspace)).toEqual([TEAM_A, TEAM_B]);
    expect(doc.subscriptions.map((s: { id: string; state: string }) => [s.id, s.state]).sort()).toEqual(
      [
        [ids.due, 'active'],
        [ids.paused, 'paused'],
        [ids.gone, 'failing'],
        [ids.retrying, 'active'],
      ].sort(),
    );
    expect(doc.failing.map((f: { id: string; state: string }) => [f.id, f.state])).toEqual([
      [ids.gone, 'failing'],
      [ids.retrying, 'retrying'],
    ]);
  }, 120_000);
});
