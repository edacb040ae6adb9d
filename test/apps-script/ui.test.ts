/** The menu, the settings dialog's server functions and what a custom function may not do. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, KEYS, startHarness } from '../support/apps-script-harness.ts';

let h: Harness;
const userKey = () => h.backing.propsGet(`user:${h.world.activeUser}`).LINEN_API_KEY;

beforeAll(async () => {
  h = await startHarness({ key: null });
});
afterAll(async () => {
  await h?.close();
});

describe('menu', () => {
  it('onOpen and onInstall add the add-on menu', () => {
    h.menu('onOpen', { authMode: 'NONE' });
    h.menu('onInstall', {});
    const menus = h.world.ui
      .filter((u) => u.kind === 'menu')
      .map((u) => u.detail as { title: string; items: unknown[] });
    expect(menus).toHaveLength(2);
    expect(menus[0]).toEqual({
      title: 'add-on',
      items: [
        ['Set API key...', 'linenShowKeyDialog'],
        ['Set API address...', 'linenShowAddressDialog'],
        '---',
        ['Refresh data', 'linenRefreshData'],
        ['Auto-refresh...', 'linenShowSchedule'],
        ['Record history...', 'linenShowHistory'],
        {
          submenu: 'Insert report',
          items: [
            ['Fill rate dashboard...', 'linenReportFillRate'],
            ['A/R aging...', 'linenReportAging'],
            ['Open shortfalls...', 'linenReportShortfalls'],
            ['Ticket tracker...', 'linenReportTickets'],
            ['History...', 'linenReportHistory'],
          ],
        },
        ['Formula builder', 'linenShowBuilder'],
        '---',
        ['Help', 'linenShowHelp'],
      ],
    });
    for (const [, fn] of menus[0]!.items.filter(Array.isArray) as [string, string][]) {
      expect(h.menu(fn).error).toBeUndefined();
    }
  });

  it('the dialogs say whose key the formulas use; Help lists the functions', () => {
    const dialogs = h.world.ui
      .filter((u) => u.kind === 'dialog')
      .map((u) => u.detail as { title: string; content: string });
    const key = dialogs.find((x) => x.title === 'Linen API key')!;
    expect(key.content).toMatch(/run with the key saved by the\s+spreadsheet's <b>owner<\/b>/);
    expect(key.content).toContain('window.LINEN_FOCUS = "key"');
    expect(dialogs.find((x) => x.title === 'Linen API address')!.content).toContain('window.LINEN_FOCUS = "address"');
    const help = dialogs.find((x) => x.title === 'Linen Connect help')!.content;
    expect(help).toContain('LINEN_FILLRATE(customer, from, to, [department], [item], [measure])');
    for (const f of [
      'LINEN_PARMET(customer, from, to, [department], [item])',
      'LINEN_SHORT([customer], [department])',
      'LINEN_REWASH_RATE(customer, [from], [to], [fault])',
      'LINEN_MANIFEST(manifest_number, [customer])',
      'LINEN_PO_STATUS([customer], [status])',
      'LINEN_ORDER(order_number)',
    ])
      expect(help).toContain(f);
  });
});

describe('settings', () => {
  it('a key is checked against the API before it is saved, and shown masked only', () => {
    const bad = h.menu('linenSaveApiKey', 'lk_live_not_a_key');
    expect(bad.error).toBe('The Linen API rejected the API key (revoked or mistyped): check it and paste it again.');
    expect(userKey()).toBeUndefined();
    expect(h.menu('linenSaveApiKey', '  ').error).toBe('Paste the API key first.');
    const ok = h.menu('linenSaveApiKey', ` ${KEYS.all} `);
    expect(ok.value).toEqual({ maskedKey: 'lk_live_…cess' });
    expect(userKey()).toBe(KEYS.all);
    const state = h.menu('linenDialogState').value as Record<string, string>;
    expect(state.maskedKey).toBe('lk_live_…cess');
    expect(JSON.stringify(state)).not.toContain(KEYS.all);
    expect(state.timeZone).toBe('America/Chicago');
    expect(h.cell('LINEN_CUSTOMERS').error).toBeUndefined();
  });

  it('the API address is checked and saved for the spreadsheet', () => {
    expect(h.menu('linenSaveBaseUrl', 'http://api.example.com/v1').error).toBe(
      'Enter an https:// address, e.g. https://api.example.com/v1.',
    );
    expect(h.menu('linenSaveBaseUrl', `${h.sb.origin}/v2`).error).toBe('The address must end with /v1.');
    expect(h.menu('linenSaveBaseUrl', 'http://127.0.0.1:9/v1').error).toMatch(
      /^Could not reach the Linen API.*The address was not saved\.$/,
    );
    const saved = h.menu('linenSaveBaseUrl', `${h.sb.baseUrl}/`);
    expect(saved.value).toEqual({ baseUrl: h.sb.baseUrl, checked: true });
    expect(h.backing.propsGet('doc:sheet-1').LINEN_BASE_URL).toBe(h.sb.baseUrl);
  });

  it("formulas use the spreadsheet owner's key, not an editor's", () => {
    h.world.activeUser = 'editor@example.com';
    try {
      expect(h.menu('linenSaveApiKey', KEYS.hotel).error).toBeUndefined();
      const customers = h.cell('LINEN_CUSTOMERS').value as unknown[][];
      expect(customers.length).toBe(h.sb.data.customers.length + 1);
      expect(h.menu('linenClearApiKey').error).toBeUndefined();
      expect(userKey()).toBeUndefined();
    } finally {
      h.world.activeUser = h.world.owner;
    }
  });

  it('a custom function cannot write properties or open UI (the add-on never tries)', () => {
    expect(h.cell('linenSaveApiKey', KEYS.all).error).toMatch(/permission to call setProperty/);
    expect(h.cell('linenShowHelp').error).toMatch(/HtmlService is not available|getUi/);
  });
});
