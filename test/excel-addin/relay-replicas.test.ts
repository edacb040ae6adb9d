/**
 * Two processes of the Excel service, each with its relay, share one key's pacing through PostgreSQL (as
 * replicas of the service do, and as the bot's commands and digests share it), under a limit scaled from 120 a
 * minute to 30 per 6 s: sixty different requests on one key, split between them at once, as ten analysts'
 * workbooks send them. The API never answers 429, never gets more than the limit in a window, and every request
 * is answered (a request whose slot would free beyond the relay's wait gets the relay's own 429 and Retry-After,
 * which the add-in's client waits for). No key appears in either process's log.
 */
import type { ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { startSandbox } from '../../sandbox/index.ts';
import { dropSchema, freshSchema, PG_URL } from '../support/digest-db.ts';
import { DEMO_KEY, TODAY, TZ } from '../support/excel-harness.ts';
import { startReadyProcess, stopProcess } from '../support/ready-process.ts';
import { startRecordingProxy } from '../support/recording-proxy.ts';
import { assertNoLeaks } from '../support/secret-leaks.ts';

const SCRIPT = fileURLToPath(new URL('../support/excel-relay-replica.ts', import.meta.url));
const LIMIT = 30;
const WINDOW_MS = 6_000;

describe.skipIf(!PG_URL)('two relays on one key, through PostgreSQL', () => {
  it('keep the key under its limit together: no 429 from the API, every request answered', async () => {
    const schema = freshSchema();
    const admin = new pg.Client({ connectionString: PG_URL });
    await admin.connect();
    await admin.query(`CREATE SCHEMA ${schema}`);
    await admin.end();
    const url = new URL(PG_URL!);
    url.searchParams.set('options', `-c search_path=${schema}`);

    const sandbox = await startSandbox({
      port: 0,
      today: TODAY,
      timeZone: TZ,
      rateLimit: { limit: LIMIT, windowMs: WINDOW_MS },
    });
    const proxy = await startRecordingProxy(sandbox.baseUrl);
    const log: string[] = [];
    const children: ChildProcess[] = [];
    try {
      const env = {
        LINEN_BASE_URL: proxy.baseUrl,
        DATABASE_URL: url.href,
        PORT: '0',
        BIND_ADDRESS: '127.0.0.1',
        EXCEL_ADDIN_DIR: '/nonexistent',
        PACING_LIMIT: String(LIMIT),
        PACING_WINDOW_MS: String(WINDOW_MS),
      };
      // The first applies the store's migrations; the second then finds them done.
      const first = await startReadyProcess(SCRIPT, env, (text) => log.push(text));
      children.push(first.child);
      const second = await startReadyProcess(SCRIPT, env, (text) => log.push(text));
      children.push(second.child);
      const ports = [first.port, second.port];

      const customers = sandbox.data.customers.filter((c) => !c.is_group);
      const paths = Array.from({ length: 60 }, (_, i) => {
        const c = customers[i % customers.length]!;
        const day = `2026-10-${String(1 + Math.floor(i / customers.length)).padStart(2, '0')}`;
        return `/excel/api/v1/deliveries/daily?customer_id=${c.id}&from=${day}&to=${day}&limit=1`;
      });
      expect(new Set(paths).size).toBe(60);
      const answers = await Promise.all(
        paths.map(async (path, i) => {
          const r = await fetch(`http://127.0.0.1:${ports[i % 2]}${path}`, {
            headers: { authorization: `Bearer ${DEMO_KEY}` },
          });
          await r.arrayBuffer();
          return { status: r.status, retryAfter: r.headers.get('retry-after') };
        }),
      );

      const at = proxy.answers.map((a) => a.at).sort((a, b) => a - b);
      let perWindow = 0;
      for (let i = 0, j = 0; i < at.length; i++) {
        while (at[i]! - at[j]! >= WINDOW_MS) j++;
        perWindow = Math.max(perWindow, i - j + 1);
      }
      expect(proxy.answers.filter((a) => a.status === 429)).toEqual([]);
      expect(perWindow).toBeLessThanOrEqual(LIMIT);
      // Every request answered with its rows, or told when to come back by the relay (never by the API).
      for (const a of answers) {
        if (a.status === 429) expect(Number(a.retryAfter)).toBeGreaterThan(0);
        else expect(a.status).toBe(200);
      }
      const served = answers.filter((a) => a.status === 200).length;
      // More than one window's worth: the two processes waited for the key's slots together.
      expect(served).toBeGreaterThan(LIMIT);
      expect(proxy.answers.length).toBe(served);
    } finally {
      for (const c of children) await stopProcess(c);
      await proxy.close();
      await sandbox.close();
      await dropSchema(PG_URL!, schema);
    }
    assertNoLeaks(
      [DEMO_KEY],
      log.map((text) => ({ source: 'relay process log', text })),
    );
  }, 120_000);
});
