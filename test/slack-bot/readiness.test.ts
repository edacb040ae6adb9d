/**
 * `GET /readyz` beside `GET /healthz` on the bot's HTTP receiver: ready when the store answers with every
 * migration applied and Slack's receiver has started; a store missing a migration, or PostgreSQL out of reach,
 * is not ready (503, a reason naming no secret) while the bot stays alive (`/healthz` 200).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPglite } from '../../base/store/pglite.ts';
import { migrateServiceDatabase, SERVICE_MIGRATIONS } from '../../service/store.ts';
import { openTestDb, PG_URL } from '../support/digest-db.ts';
import type { Harness } from '../support/slack-harness.ts';
import { startHarness } from '../support/slack-harness.ts';
import { startTcpProxy } from '../support/tcp-proxy.ts';

let h: Harness;

beforeAll(async () => {
  h = await startHarness();
}, 120_000);

afterAll(async () => {
  await h?.close();
});

async function probe(port: number, path: '/readyz' | '/healthz') {
  const res = await fetch(`http://127.0.0.1:${port}${path}`);
  return { status: res.status, type: res.headers.get('content-type'), body: (await res.json()) as Record<string, any> };
}

describe('GET /readyz', () => {
  it('is ready when the store answers with its migrations and the receiver has started', async () => {
    const bot = await h.startBotWith({}, { start: { digests: { worker: false } } });
    expect(await probe(bot.bot.port, '/readyz')).toEqual({
      status: 200,
      type: 'application/json',
      body: { ready: true, checks: { store: 'ok', slack: 'ok' } },
    });
    expect((await probe(bot.bot.port, '/healthz')).status).toBe(200);
    expect(bot.logs.join('\n')).toMatch(/GET \/healthz and \/readyz/);
    await bot.stop();
  });

  it('is not ready while a migration is missing, and names it; alive all the while', async () => {
    const db = await openPglite();
    await migrateServiceDatabase(db);
    const bot = await h.startBotWith({}, { start: { digests: { worker: false }, database: db } });
    const latest = SERVICE_MIGRATIONS.at(-1)!;
    await db.query('DELETE FROM digest_migrations WHERE version = $1', [latest.version]);
    const notReady = await probe(bot.bot.port, '/readyz');
    expect(notReady.status).toBe(503);
    expect(notReady.body).toMatchObject({
      ready: false,
      reason: `the digest store's migrations are not applied (${latest.version})`,
    });
    expect((await probe(bot.bot.port, '/healthz')).status).toBe(200);
    await db.query('INSERT INTO digest_migrations (version, name) VALUES ($1, $2)', [latest.version, latest.name]);
    expect((await probe(bot.bot.port, '/readyz')).status).toBe(200);
    await bot.stop();
    await db.close();
  });

  it.skipIf(!PG_URL)(
    'is not ready while PostgreSQL is out of reach, alive all the while, ready once back',
    async () => {
      const u = new URL(PG_URL!);
      const proxy = await startTcpProxy({ host: u.hostname, port: Number(u.port || 5432) });
      const via = proxy.urlFor(PG_URL!);
      const db = await openTestDb('pg', { via });
      const bot = await h.startBotWith({}, { start: { digests: { worker: false }, database: db.executor } });
      try {
        expect((await probe(bot.bot.port, '/readyz')).status).toBe(200);
        proxy.cut();
        const down = await probe(bot.bot.port, '/readyz');
        expect(down.status).toBe(503);
        expect(down.body).toEqual({
          ready: false,
          reason: 'the digest store is not answering',
          checks: { store: 'the digest store is not answering', slack: 'ok' },
        });
        expect(JSON.stringify(down.body)).not.toMatch(/postgres|127\.0\.0\.1|ECONN/i);
        expect(await probe(bot.bot.port, '/healthz')).toMatchObject({ status: 200, body: { ok: true } });
        proxy.restore();
        // The pool's connections died with the cut: the next probe's query opens a new one.
        await expect.poll(async () => (await probe(bot.bot.port, '/readyz')).status, { timeout: 10_000 }).toBe(200);
      } finally {
        proxy.restore();
        await bot.stop();
        await db.close();
        await proxy.close();
      }
    },
  );
});
