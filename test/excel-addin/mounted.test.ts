/**
 * The bot in HTTP mode serves Excel beside Slack on its one port: the built add-in at /excel/, the relay at
 * /excel/api/v1 (which never uses the bot's own LINEN_API_KEY), and every other path still the Slack receiver's.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildExcelAddin } from '../../scripts/build-excel-addin.ts';
import { type BotUnderTest, type Harness, startHarness } from '../support/slack-harness.ts';

const BOT_KEY = 'lk_live_demo_all_access';
let h: Harness;
let bot: BotUnderTest;
let origin: string;
let dir: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'linen-excel-bot-'));
  await buildExcelAddin({ outDir: dir, publicUrl: 'https://linen.example.org', quiet: true });
  h = await startHarness();
  bot = await h.startBotWith({ LINEN_API_KEY: BOT_KEY, EXCEL_ADDIN_DIR: dir }, { ownClients: true });
  origin = new URL(bot.url).origin;
}, 60_000);
afterAll(async () => {
  await h?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('the bot on HTTP', () => {
  it('serves the runtime page, its scripts, the metadata and the manifest under /excel/', async () => {
    const page = await fetch(`${origin}/excel/`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(await page.text()).toContain('<script src="functions.js"></script>');
    for (const [file, type] of [
      ['linen.js', /^text\/javascript/],
      ['functions.json', /^application\/json/],
      ['manifest.xml', /^application\/xml/],
      ['assets/icon-32.png', /^image\/png/],
    ] as const) {
      const r = await fetch(`${origin}/excel/${file}`);
      expect(r.status, file).toBe(200);
      expect(r.headers.get('content-type'), file).toMatch(type);
    }
    expect((await fetch(`${origin}/excel/nothing.js`)).status).toBe(404);
  });

  it("relays with the caller's key, and without one answers 401 rather than use the bot's own", async () => {
    const before = h.sandbox.requests.count;
    const none = await fetch(`${origin}/excel/api/v1/customers`);
    expect(none.status).toBe(401);
    expect(h.sandbox.requests.count).toBe(before);
    const own = await fetch(`${origin}/excel/api/v1/customers?limit=1`, {
      headers: { authorization: 'Bearer lk_live_demo_harbor_hotel' },
    });
    expect(own.status).toBe(200);
    const names = ((await own.json()) as { data: { name: string }[] }).data.map((c) => c.name);
    expect(names).toEqual(['Harborview Hotel']);
  });

  it('leaves every other path to the Slack receiver and its probes', async () => {
    expect((await fetch(`${origin}/healthz`)).status).toBe(200);
    const unsigned = await fetch(bot.url, { method: 'POST', body: 'token=x' });
    expect(unsigned.status).toBe(401);
  });
});
