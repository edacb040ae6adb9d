/**
 * The task pane in a real headless Chromium, served by the service at /excel/ as Excel loads it, with a stand-in
 * for Microsoft's office.js (the CDN is not reachable here; the stand-in keeps what the add-in uses:
 * `Office.onReady`, `OfficeRuntime.storage`, `Excel.run` with `application.calculate`, `CustomFunctions`), and
 * the API in front of the sandbox made hostile (a customer named with markup). It checks a key as /linen connect
 * does, keeps it in OfficeRuntime.storage (never the workbook), refreshes, forgets it, and takes the screenshot in
 * docs/ (LINEN_SCREENSHOTS_DIR=docs renews it).
 */
import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, startHostileApi } from '../support/browser.ts';
import { DEMO_KEY, type ExcelHarness, startExcelHarness, startExcelService } from '../support/excel-harness.ts';

const HOSTILE = 'Harborview <img src=x onerror="window.__pwned=1"> & <b>Spa</b>';
const SHOTS = process.env.LINEN_SCREENSHOTS_DIR ?? mkdtempSync(join(tmpdir(), 'linen-shots-'));
const KEYS = {
  hotel: 'lk_live_demo_harbor_hotel',
  mercyOps: 'lk_live_demo_mercy_ops',
  revoked: 'lk_live_demo_revoked',
};

/** What the page uses of office.js, recording what it is asked. */
const OFFICE_JS = `(() => {
  const items = new Map();
  window.__office = { items, calculations: [], documentSettings: [], associated: [] };
  window.Office = {
    onReady(callback) {
      return Promise.resolve().then(() => { callback && callback({ host: 'Excel', platform: 'OfficeOnline' }); return { host: 'Excel' }; });
    },
    context: {
      requirements: { isSetSupported: (name) => ['SharedRuntime', 'CustomFunctionsRuntime', 'ExcelApi'].includes(name) },
      document: { settings: { set: (k, v) => window.__office.documentSettings.push([k, v]), saveAsync: () => {} } },
    },
  };
  window.OfficeRuntime = { storage: {
    getItems: async (keys) => Object.fromEntries(keys.map((k) => [k, items.has(k) ? items.get(k) : null])),
    setItems: async (values) => { for (const [k, v] of Object.entries(values)) items.set(k, String(v)); },
    removeItems: async (keys) => { for (const k of keys) items.delete(k); },
  } };
  window.Excel = {
    CalculationType: { recalculate: 'Recalculate', full: 'Full', fullRebuild: 'FullRebuild' },
    run: async (batch) => batch({ workbook: { application: { calculate: (t) => window.__office.calculations.push(t) } }, sync: async () => {} }),
  };
  class CustomFunctionsError { constructor(code, message) { this.code = code; this.message = message; } }
  window.CustomFunctions = {
    associate: (id) => window.__office.associated.push(id),
    Error: CustomFunctionsError,
    ErrorCode: { invalidValue: '#VALUE!', notAvailable: '#N/A' },
  };
})();`;

let h: ExcelHarness;
let api: Awaited<ReturnType<typeof startHostileApi>>;
let service: Awaited<ReturnType<typeof startExcelService>>;
let browser: Awaited<ReturnType<typeof launchChromium>>;

beforeAll(async () => {
  h = await startExcelHarness();
  api = await startHostileApi({
    upstream: h.sandbox.origin,
    from: 'Harborview Hotel',
    to: HOSTILE,
    deniedKey: 'lk_live_unused_deny',
  });
  service = await startExcelService(h.dir, api.baseUrl);
  browser = await launchChromium();
  await browser.context.route('https://appsforoffice.microsoft.com/**', (route) =>
    route.fulfill({ status: 200, contentType: 'text/javascript', body: OFFICE_JS }),
  );
  mkdirSync(SHOTS, { recursive: true });
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await service?.close();
  await api?.close();
  await h?.close();
});

/** The pane as the service at `origin` serves it (default: the one in front of the hostile API). */
async function openPane(origin = service.origin): Promise<Page> {
  const page = await browser.context.newPage();
  await page.setViewportSize({ width: 360, height: 820 });
  await page.goto(`${origin}/excel/`);
  await expect.poll(() => page.locator('#status').textContent()).not.toBe('Reading the saved settings…');
  return page;
}

const stored = (page: Page) => page.evaluate(() => Object.fromEntries((globalThis as any).__office.items));
const office = (page: Page) => page.evaluate(() => (globalThis as any).__office);

async function connect(page: Page, key: string, timeZone?: string): Promise<void> {
  await page.fill('#key', key);
  if (timeZone !== undefined) await page.fill('#timezone', timeZone);
  await page.click('#connect');
  await expect.poll(() => page.locator('#connect').isDisabled()).toBe(false);
}

/** A LINEN function called in the page's runtime, as Excel calls it. */
const callInPage = (page: Page, name: string, args: unknown[]) =>
  page.evaluate(
    async ([n, a]) => {
      try {
        return { value: await (globalThis as any).LinenExcel.call(n, a) };
      } catch (e) {
        return { error: { code: (e as any).code, message: (e as any).message } };
      }
    },
    [name, args] as const,
  );

describe('the task pane', () => {
  it('opens on the runtime page, with every function registered and no key saved', async () => {
    const page = await openPane();
    expect(await page.locator('h1').textContent()).toBe('Linen Connect');
    expect(await page.locator('#status').textContent()).toBe('Not connected: paste a key below.');
    expect(await page.inputValue('#timezone')).toBe(
      await page.evaluate(() => Intl.DateTimeFormat().resolvedOptions().timeZone),
    );
    expect((await office(page)).associated).toHaveLength(30);
    // Where the key is kept is said plainly.
    expect(await page.locator('.note').textContent()).toMatch(
      /this computer only, never in the workbook\. It is not encrypted/,
    );
    await page.close();
  });

  it('refuses a revoked key, a key with spaces and a time zone that is none, saving nothing', async () => {
    const page = await openPane();
    await connect(page, KEYS.revoked);
    expect(await page.locator('#message').textContent()).toBe(
      'The Linen API rejected this key (revoked or mistyped): check it and paste it again.',
    );
    await connect(page, 'lk_live_demo all_access');
    expect(await page.locator('#message').textContent()).toBe(
      'The key contains spaces or line breaks; paste it again.',
    );
    await connect(page, DEMO_KEY, 'Mars/Olympus');
    expect(await page.locator('#message').textContent()).toBe(
      '"Mars/Olympus" is not a time zone; choose one such as America/Chicago.',
    );
    expect(await stored(page)).toEqual({});
    expect((await office(page)).calculations).toEqual([]);
    await page.close();
  });

  it('checks a key (its customers and scopes), keeps it in OfficeRuntime.storage with the time zone, and recalculates', async () => {
    const page = await openPane(h.origin);
    await connect(page, DEMO_KEY, 'America/Chicago');
    expect(await page.locator('#message').textContent()).toBe(
      'Connected. Every LINEN. formula has been recalculated with this key.',
    );
    expect(await page.locator('#status').textContent()).toBe('Connected with the key lk_live_…cess.');
    const customers = h.sandbox.data.customers.length;
    expect(await page.locator('#report').textContent()).toMatch(
      new RegExp(
        `^${customers} customers: .+ and ${customers - 3} more\\. Access: processing, accounting, direct-sales\\.$`,
      ),
    );
    expect(await stored(page)).toEqual({ LINEN_API_KEY: DEMO_KEY, LINEN_TIMEZONE: 'America/Chicago' });
    const o = await office(page);
    expect(o.calculations).toEqual(['Full']);
    expect(o.documentSettings).toEqual([]);
    // The key is not shown again, and the field is emptied.
    expect(await page.inputValue('#key')).toBe('');
    expect(await page.locator('body').innerText()).not.toContain(DEMO_KEY);
    await page.screenshot({ path: join(SHOTS, 'excel-task-pane.png'), fullPage: true });
    await page.close();
  });

  it("names the scopes a key lacks, and shows the API's names as text", async () => {
    const page = await openPane();
    await connect(page, KEYS.mercyOps);
    expect(await page.locator('#report').textContent()).toMatch(/Access: processing; not accounting, direct-sales\.$/);
    await connect(page, KEYS.hotel);
    expect(await page.locator('#report').textContent()).toBe(
      `1 customer: ${HOSTILE}. Access: processing, direct-sales; not accounting.`,
    );
    expect(await page.evaluate(() => (globalThis as any).__pwned)).toBeUndefined();
    expect(await page.locator('img, b').count()).toBe(0);
    await page.close();
  });

  it('refreshes: answers kept by the cells are dropped and every formula recalculated', async () => {
    const page = await openPane();
    await connect(page, DEMO_KEY);
    const args = ['Mercy General Hospital', '2026-10-01', '2026-10-31', null, null, null];
    const before = h.sandbox.requests.count;
    const first = await callInPage(page, 'LINEN_FILLRATE', args);
    expect(first).toEqual({ value: expect.any(Number) });
    const cold = h.sandbox.requests.count - before;
    expect(cold).toBeGreaterThan(0);
    expect(await callInPage(page, 'LINEN_FILLRATE', args)).toEqual(first);
    expect(h.sandbox.requests.count - before).toBe(cold);
    await page.click('#refresh');
    await expect
      .poll(() => page.locator('#message').textContent())
      .toBe('Refreshed: every LINEN. formula was recalculated with fresh data.');
    expect((await office(page)).calculations.at(-1)).toBe('Full');
    expect(await callInPage(page, 'LINEN_FILLRATE', args)).toEqual(first);
    expect(h.sandbox.requests.count - before).toBe(2 * cold);
    await page.close();
  });

  it('forgets the key: removed from storage, and the cells say how to connect', async () => {
    const page = await openPane();
    await connect(page, DEMO_KEY);
    await page.click('#forget');
    await expect.poll(() => page.locator('#status').textContent()).toBe('Not connected: paste a key below.');
    expect(await stored(page)).not.toHaveProperty('LINEN_API_KEY');
    expect(await callInPage(page, 'LINEN_CUSTOMERS', [])).toEqual({
      error: {
        code: '#N/A',
        message:
          'No Linen API key is set in Excel on this computer: open the task pane (Home > Linen Connect), paste your key and choose Connect.',
      },
    });
    await page.close();
  });
});
