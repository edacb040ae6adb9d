/**
 * The service serves the feed at /odata/ on its one HTTP port, beside Slack and Excel: with each caller's own key
 * (never the service's LINEN_API_KEY), links absolute under PUBLIC_URL, and the Power BI data source file that
 * opens the feed with its address and no key.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../service/config.ts';
import { basic } from '../support/odata-harness.ts';
import { type BotUnderTest, type Harness, startHarness } from '../support/slack-harness.ts';

const BOT_KEY = 'lk_live_demo_all_access';
const HARBOR_KEY = 'lk_live_demo_harbor_hotel';
const PUBLIC_URL = 'https://linen.example.org';
let h: Harness;
let bot: BotUnderTest;
let origin: string;

beforeAll(async () => {
  h = await startHarness();
  bot = await h.startBotWith({ LINEN_API_KEY: BOT_KEY, PUBLIC_URL }, { ownClients: true });
  origin = new URL(bot.url).origin;
}, 60_000);
afterAll(async () => {
  await h?.close();
});

const get = (path: string, key?: string) =>
  fetch(`${origin}${path}`, { headers: key ? { authorization: basic(key) } : {} });

describe('the service on HTTP', () => {
  it("answers with the caller's key, and without one asks for it rather than use the service's own", async () => {
    const before = h.sandbox.requests.count;
    const none = await get('/odata/Customers');
    expect(none.status).toBe(401);
    expect(none.headers.get('www-authenticate')).toBe('Basic realm="Linen"');
    expect(h.sandbox.requests.count).toBe(before);
    const own = await get('/odata/Customers?$select=name', HARBOR_KEY);
    expect(own.status).toBe(200);
    const body = (await own.json()) as { '@odata.context': string; value: { name: string }[] };
    expect(body.value.map((c) => c.name)).toEqual(['Harborview Hotel']);
    expect(body['@odata.context']).toBe(`${PUBLIC_URL}/odata/$metadata#Customers(name)`);
  });

  it('writes absolute links under PUBLIC_URL: the service document and next links', async () => {
    const doc = (await (await get('/odata/', HARBOR_KEY)).json()) as { '@odata.context': string };
    expect(doc['@odata.context']).toBe(`${PUBLIC_URL}/odata/$metadata`);
    const page = await fetch(`${origin}/odata/Items`, {
      headers: { authorization: basic(HARBOR_KEY), prefer: 'odata.maxpagesize=1' },
    });
    const next = ((await page.json()) as { '@odata.nextLink': string })['@odata.nextLink'];
    expect(next.startsWith(`${PUBLIC_URL}/odata/Items?$skiptoken=`)).toBe(true);
    const followed = await get(next.slice(PUBLIC_URL.length), HARBOR_KEY);
    expect(followed.status).toBe(200);
  });

  it('serves linen.pbids without credentials: the feed address, no key', async () => {
    const r = await get('/odata/linen.pbids');
    expect(r.status).toBe(200);
    expect(r.headers.get('content-disposition')).toBe('attachment; filename="linen.pbids"');
    const text = await r.text();
    expect(JSON.parse(text)).toEqual({
      version: '0.1',
      connections: [
        { details: { protocol: 'odata', address: { url: `${PUBLIC_URL}/odata/` } }, options: {}, mode: 'Import' },
      ],
    });
    expect(text).not.toMatch(/lk_/);
  });

  it('reads PUBLIC_URL as an http(s) address without a query or credentials', () => {
    const env = {
      SLACK_BOT_TOKEN: 'xoxb-1',
      SLACK_SIGNING_SECRET: '0123456789abcdef0123456789abcdef',
      LINEN_BASE_URL: 'https://api.example.com/v1',
      LINEN_TIMEZONE: 'America/Chicago',
    };
    expect(loadConfig({ ...env, PUBLIC_URL: 'https://linen.example.org/' }).publicUrl).toBe(
      'https://linen.example.org',
    );
    expect(loadConfig(env).publicUrl).toBeUndefined();
    expect(() => loadConfig({ ...env, PUBLIC_URL: 'ftp://linen.example.org' })).toThrow(/PUBLIC_URL/);
    expect(() => loadConfig({ ...env, PUBLIC_URL: 'https://u:p@linen.example.org' })).toThrow(/PUBLIC_URL/);
  });
});
