/**
 * The formula builder sidebar and the settings, auto-refresh and Insert report dialogs in a real headless
 * Chromium: the HTML as HtmlService
 * serves it, google.script.run calling the add-on's server functions in the Apps Script stand-in runtime, the
 * API in front of the sandbox made hostile (a customer named with markup, an error message with markup).
 * Screenshots go to LINEN_SCREENSHOTS_DIR (docs/ keeps the committed ones), else a temporary folder.
 */
import { mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, KEYS, startHarness } from '../support/apps-script-harness.ts';
import { cellOf } from '../support/apps-script-spreadsheet.ts';
import { type AddonServer, launchChromium, startAddonServer, startHostileApi } from '../support/browser.ts';

const HOSTILE = 'Harborview <img src=x onerror="window.__pwned=1"> & <b>Spa</b>';
const DENIED_KEY = 'lk_live_hostile_markup';
const SHOTS = process.env.LINEN_SCREENSHOTS_DIR ?? mkdtempSync(join(tmpdir(), 'linen-shots-'));

let h: Harness;
let api: Awaited<ReturnType<typeof startHostileApi>>;
let server: AddonServer;
let browser: Awaited<ReturnType<typeof launchChromium>>;

beforeAll(async () => {
  h = await startHarness();
  api = await startHostileApi({ upstream: h.sb.origin, from: 'Harborview Hotel', to: HOSTILE, deniedKey: DENIED_KEY });
  h.setDocProp('LINEN_BASE_URL', api.baseUrl);
  server = await startAddonServer(h);
  browser = await launchChromium();
  mkdirSync(SHOTS, { recursive: true });
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await server?.close();
  await api?.close();
  await h?.close();
});

/** What the add-on showed last (a dialog or the sidebar), opened in a new page of the given size. */
async function open(kind: 'dialog' | 'sidebar', size: { width: number; height: number }): Promise<Page> {
  const shown = h.world.ui.filter((u) => u.kind === kind).at(-1)!.detail as { content: string };
  const page = await browser.context.newPage();
  await page.setViewportSize(size);
  await page.goto(server.page(shown.content));
  return page;
}

/** No element or handler came from API text, and nothing ran it. */
async function expectInert(page: Page): Promise<void> {
  expect(await page.evaluate(() => (globalThis as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
  expect(await page.locator('img').count()).toBe(0);
}

describe('formula builder sidebar', () => {
  let page: Page;

  beforeAll(async () => {
    h.world.sheets = [{ name: 'Sheet1', formulas: [] }];
    h.world.active = { sheet: 'Sheet1', a1: 'B3' };
    expect(h.menu('linenShowBuilder').error).toBeUndefined();
    page = await open('sidebar', { width: 300, height: 660 });
  });

  it('opens as a sidebar titled Linen formula builder, with every function and the customers from the API', async () => {
    expect((h.world.ui.at(-1)!.detail as { title: string }).title).toBe('Linen formula builder');
    await page.locator('#arg-customer option').nth(2).waitFor({ state: 'attached' });
    const fns = await page
      .locator('#fn option')
      .evaluateAll((os) => os.map((o) => (o as unknown as { value: string }).value));
    expect(fns[0]).toBe('LINEN_FILLRATE');
    expect(fns).toContain('LINEN_TICKETS');
    const names = await page.locator('#arg-customer option').allTextContents();
    expect(names).toContain('Mercy General Hospital');
    // The customer named with markup is an option's text, nothing more.
    expect(names).toContain(HOSTILE);
    await expectInert(page);
  });

  it('builds the formula as the fields change, previews its value and inserts it into the selected cell', async () => {
    await page.selectOption('#arg-customer', 'Mercy General Hospital');
    await page.fill('#arg-from', '2026-10-01');
    await page.fill('#arg-to', '2026-10-31');
    await page.selectOption('#arg-department', 'ICU');
    await expect
      .poll(() => page.locator('#formula').textContent())
      .toBe('=LINEN_FILLRATE("Mercy General Hospital", "2026-10-01", "2026-10-31", "ICU")');
    await page.locator('#arg-item option', { hasText: 'Patient Gown' }).waitFor({ state: 'attached' });
    await page.selectOption('#arg-item', 'Patient Gown');
    const formula = '=LINEN_FILLRATE("Mercy General Hospital", "2026-10-01", "2026-10-31", "ICU", "Patient Gown")';
    await expect.poll(() => page.locator('#formula').textContent()).toBe(formula);

    await page.click('#preview-btn');
    await page.locator('#value').waitFor();
    const expected = h.cell(
      'LINEN_FILLRATE',
      'Mercy General Hospital',
      '2026-10-01',
      '2026-10-31',
      'ICU',
      'Patient Gown',
    ).value as number;
    expect(await page.locator('#value').textContent()).toBe(String(Math.round(expected * 10_000) / 10_000));

    await page.click('#insert');
    await expect.poll(() => page.locator('#status').textContent()).toBe('Inserted in Sheet1!B3.');
    expect(cellOf(h.world.sheets[0]!, 'B3').formula).toBe(formula);
    expect(await page.evaluate(() => (globalThis as unknown as { __host: { focused: number } }).__host.focused)).toBe(
      1,
    );
    await page.screenshot({ path: join(SHOTS, 'formula-builder.png'), fullPage: true });
    expect(readFileSync(join(SHOTS, 'formula-builder.png')).subarray(1, 4).toString()).toBe('PNG');
  });

  it('shows a table preview with API text as text', async () => {
    await page.selectOption('#fn', 'LINEN_CUSTOMERS');
    await expect.poll(() => page.locator('#formula').textContent()).toBe('=LINEN_CUSTOMERS()');
    await page.click('#preview-btn');
    await page.locator('#preview table').waitFor();
    const cells = await page.locator('#preview td').allTextContents();
    expect(cells).toContain(HOSTILE);
    expect(await page.locator('#preview th').first().textContent()).toBe('Id');
    await expectInert(page);
  });

  it('says what to do when no cell is selected, and inserts nothing', async () => {
    h.world.active = undefined;
    await page.click('#insert');
    await expect.poll(() => page.locator('#status').textContent()).toBe('Select a cell first, then insert.');
    expect(await page.locator('#status').getAttribute('class')).toBe('note err');
  });
});

describe('settings dialog', () => {
  let page: Page;

  beforeAll(async () => {
    expect(h.menu('linenShowKeyDialog').error).toBeUndefined();
    page = await open('dialog', { width: 480, height: 460 });
  });

  it('shows an error message from the API as text', async () => {
    await expect.poll(() => page.locator('#masked').textContent()).toBe('lk_live_…cess');
    await page.fill('#key', DENIED_KEY);
    await page.click('#save-key');
    await expect
      .poll(() => page.locator('#key-status').textContent())
      .toBe(`Access denied: ${HOSTILE}: ask your linen provider for a key that includes it.`);
    await expectInert(page);
  });

  it('checks and saves a key, then never puts it back into the page', async () => {
    const sentBefore = server.sent.length;
    await page.fill('#key', KEYS.mercyOps);
    await page.click('#save-key');
    await expect
      .poll(() => page.locator('#key-status').textContent())
      .toBe('Key checked and saved. Use Refresh data to recalculate existing formulas.');
    expect(await page.locator('#masked').textContent()).toBe('lk_live_…_ops');
    expect(await page.inputValue('#key')).toBe('');
    expect(await page.content()).not.toContain(KEYS.mercyOps);
    // Nothing the add-on sent back to the page carries the key, before or after saving.
    expect(server.sent.slice(sentBefore).join('\n')).not.toContain(KEYS.mercyOps);
    expect(server.sent.join('\n')).not.toContain(KEYS.all);
    await page.screenshot({ path: join(SHOTS, 'settings-dialog.png') });
    h.setKey(KEYS.all);
  });

  it('reopened, the dialog shows the saved key masked only', async () => {
    expect(h.menu('linenShowKeyDialog').error).toBeUndefined();
    const again = await open('dialog', { width: 480, height: 460 });
    await expect.poll(() => again.locator('#masked').textContent()).toBe('lk_live_…cess');
    expect(await again.content()).not.toContain(KEYS.all);
    expect(await again.inputValue('#key')).toBe('');
  });
});

describe('auto-refresh dialog', () => {
  let page: Page;

  beforeAll(async () => {
    h.world.triggers = [];
    expect(h.menu('linenShowSchedule').error).toBeUndefined();
    page = await open('dialog', { width: 500, height: 520 });
  });

  it('says whose key a schedule runs with, and turns the hourly refresh on with one trigger', async () => {
    await expect
      .poll(() => page.locator('#key-note').textContent())
      .toBe(
        "Runs with the API key of whoever turns it on; formulas use the key of the spreadsheet's owner, owner@example.com, so the owner turns it on.",
      );
    await page.selectOption('#refresh', 'hourly');
    await page.click('#save');
    await expect.poll(() => page.locator('#status').textContent()).toBe('Saved.');
    expect(await page.locator('#key-note').textContent()).toBe(
      'Runs with the API key saved by owner@example.com (the owner, whose key the formulas use).',
    );
    expect(h.world.triggers.map((t) => t.owner)).toEqual(['owner@example.com']);
  });

  it("shows a failed run's message from the API as text", async () => {
    h.setKey(DENIED_KEY);
    try {
      await page.click('#record-now');
      await expect
        .poll(() => page.locator('#status').textContent())
        .toBe(
          `Access denied: ${HOSTILE}: ask your linen provider for a key that includes it. No history was recorded.`,
        );
      await expectInert(page);
    } finally {
      h.setKey(KEYS.all);
    }
  });
});

describe('insert report dialog', () => {
  let page: Page;

  beforeAll(async () => {
    h.world.sheets = [{ name: 'Sheet1', formulas: [] }];
    expect(h.menu('linenReportFillRate').error).toBeUndefined();
    page = await open('dialog', { width: 420, height: 340 });
  });

  it('offers the customers the key sees, API names as text, with the last 30 days', async () => {
    await expect.poll(() => page.locator('#insert').isDisabled()).toBe(false);
    const names = await page.locator('#customer option').allTextContents();
    expect(names).toContain(HOSTILE);
    expect(names).toContain('Mercy General Hospital');
    // A fill-rate dashboard is one customer's: there is no "All customers".
    expect(names).not.toContain('All customers');
    expect(await page.inputValue('#from')).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(await page.inputValue('#to')).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    await expectInert(page);
  });

  it('says what is wrong with the dates in one sentence, keeps the dialog open and builds nothing', async () => {
    await page.selectOption('#customer', { label: 'Mercy General Hospital' });
    await page.fill('#from', '2026-11-01');
    await page.fill('#to', '2026-10-01');
    await page.click('#insert');
    await expect
      .poll(() => page.locator('#status').textContent())
      .toBe('The from date (2026-11-01) is after the to date (2026-10-01).');
    expect(await page.locator('#insert').isDisabled()).toBe(false);
    expect(await page.evaluate(() => (globalThis as unknown as { __host: { closed: boolean } }).__host.closed)).toBe(
      false,
    );
    expect(h.world.sheets.map((s) => s.name)).toEqual(['Sheet1']);
  });

  it('builds the sheet for the chosen customer and dates, then closes', async () => {
    await page.fill('#from', '2026-10-01');
    await page.fill('#to', '2026-10-31');
    await page.click('#insert');
    await expect
      .poll(() => page.evaluate(() => (globalThis as unknown as { __host: { closed: boolean } }).__host.closed))
      .toBe(true);
    const added = h.world.sheets.map((s) => s.name).filter((n) => n !== 'Sheet1');
    expect(added).toHaveLength(1);
    expect(added[0]).toMatch(/Mercy General Hospital/);
  });

  it("shows the API's refusal as text when the key cannot list customers", async () => {
    h.setKey(DENIED_KEY);
    try {
      expect(h.menu('linenReportFillRate').error).toBeUndefined();
      const denied = await open('dialog', { width: 420, height: 340 });
      await expect
        .poll(() => denied.locator('#status').textContent())
        .toBe(`Access denied: ${HOSTILE}: ask your linen provider for a key that includes it.`);
      expect(await denied.locator('#customer option').count()).toBe(0);
      await expectInert(denied);
    } finally {
      h.setKey(KEYS.all);
    }
  });
});
