/**
 * Scheduled refresh: one run fetches what every LINEN_ formula needs (each page once, first pages together
 * with fetchAll) under a new cache generation, then rewrites the formulas, which find a warm cache; a run
 * out of time continues next run, a failed run changes nothing and says so in the menu. The sandbox enforces
 * the real 120 requests a minute.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, KEYS, startHarness, TZ } from '../support/apps-script-harness.ts';
import { coldRecalculation, type PlannedCell, refreshSheets } from '../support/refresh-sheet.ts';

let h: Harness;
let cells: PlannedCell[];
const FROM = '2026-10-01';
const TO = '2026-10-31';

const docProps = () => h.backing.propsGet(`doc:${h.world.spreadsheetId}`);
const status = () => JSON.parse(docProps().LINEN_SCHEDULE_STATUS ?? '{}');
const statusOf = (s: { refresh?: { ok: boolean; message: string } }) => s.refresh ?? { ok: undefined, message: '' };
const runCells = () => cells.map((c) => h.cell(c.call.name, ...c.call.args));
const turnOn = (every = 'hourly') => h.menu('linenSaveSchedule', { refresh: every, hour: 6, history: false });

beforeAll(async () => {
  h = await startHarness({ sandbox: { rateLimit: { limit: 120, windowMs: 60_000 } } });
  const built = refreshSheets(h.sb.data, { customers: 5, cellsPerCustomer: 60, from: FROM, to: TO });
  h.world.sheets = built.sheets;
  cells = built.cells;
});
afterAll(async () => {
  await h?.close();
});

describe('one scheduled run', () => {
  it('refreshes 300 cells over 5 customers in at most (distinct pages + 5) requests, 0 answered 429', async () => {
    expect(cells).toHaveLength(300);
    const cold = await coldRecalculation(h, cells);
    expect(turnOn().error).toBeUndefined();
    h.takeFetches();
    const runs = h.fireTriggers();
    expect(runs).toHaveLength(1);
    expect(runs[0]!.error).toBeUndefined();
    const fetches = h.takeFetches();
    expect(statusOf(status())).toMatchObject({ ok: true });
    expect(fetches.length).toBeLessThanOrEqual(cold.pages + 5);
    expect(new Set(fetches.map((f) => f.url)).size).toBe(fetches.length); // no page twice
    expect(fetches.filter((f) => f.status === 429)).toHaveLength(0);
    // Independent pages went out together: far fewer fetchAll calls than requests.
    expect(fetches.every((f) => f.batch !== undefined)).toBe(true);
    expect(new Set(fetches.map((f) => f.batch)).size).toBeLessThan(fetches.length / 4);
    // Every LINEN_ formula was rewritten, and each cell now reads the warm cache: no request, same value.
    expect(
      new Set(
        h.world.formulaWrites
          .splice(0)
          .filter((w) => w.formula)
          .map((w) => `${w.sheet}!${w.row},${w.column}`),
      ).size,
    ).toBe(300);
    const values = runCells();
    expect(h.takeFetches()).toHaveLength(0);
    expect(values.map((v) => v.value)).toEqual(cold.values);
  });

  it('does nothing when the refresh is not due yet (hourly: the last one completed minutes ago)', () => {
    const generation = docProps().LINEN_CACHE_GENERATION;
    h.fireTriggers();
    expect(h.takeFetches()).toHaveLength(0);
    expect(docProps().LINEN_CACHE_GENERATION).toBe(generation);
  });
});

/** Let `ms` pass on the executions' clock (hourly triggers only do what is due). */
const later = (ms: number) => {
  h.world.clock = { offsetMs: (h.world.clock?.offsetMs ?? 0) + ms, perFetchMs: 0 };
};
const menuCaption = () => {
  h.world.ui.length = 0;
  h.menu('onOpen', { authMode: 'LIMITED' });
  const menu = h.world.ui.find((u) => u.kind === 'menu')!.detail as { items: unknown[] };
  return (menu.items.find((i) => Array.isArray(i) && i[1] === 'linenShowSchedule') as string[])[0];
};

describe('a run that cannot finish', () => {
  it('a revoked key keeps the previous values and the menu says the last run failed', () => {
    expect(menuCaption()).toBe("Auto-refresh: hourly, owner@example.com's key...");
    const generation = docProps().LINEN_CACHE_GENERATION;
    h.setKey(KEYS.revoked);
    try {
      later(3_600_000);
      h.fireTriggers();
      expect(statusOf(status())).toMatchObject({
        ok: false,
        message:
          'The Linen API rejected the API key (revoked or mistyped): set a valid one with Extensions > Linen Connect > Set API key... The previous values were kept.',
      });
      expect(docProps().LINEN_CACHE_GENERATION).toBe(generation);
      expect(h.world.formulaWrites).toHaveLength(0);
      expect(menuCaption()).toBe("Auto-refresh: hourly, owner@example.com's key, last run failed...");
      const state = h.menu('linenScheduleState').value as { failure: string };
      expect(state.failure).toMatch(/rejected the API key/);
      expect(JSON.stringify(state)).not.toContain(KEYS.revoked);
    } finally {
      h.setKey(KEYS.all);
    }
  });

  it('an API that keeps failing (5xx) keeps the previous values too', async () => {
    const generation = docProps().LINEN_CACHE_GENERATION;
    await h.sb.enqueue({ kind: '500', count: 200 });
    try {
      later(3_600_000);
      h.fireTriggers();
    } finally {
      await h.sb.resetFaults();
    }
    expect(statusOf(status())).toMatchObject({ ok: false });
    expect(statusOf(status()).message).toMatch(/The previous values were kept\.$/);
    expect(docProps().LINEN_CACHE_GENERATION).toBe(generation);
    expect(h.world.formulaWrites).toHaveLength(0);
  });

  it('a run out of time leaves nothing half-refreshed and the next run continues where it stopped', () => {
    const generation = docProps().LINEN_CACHE_GENERATION;
    h.takeFetches();
    later(3_600_000);
    h.world.clock!.perFetchMs = 300_000; // each round of requests takes five minutes
    h.fireTriggers();
    const first = h.takeFetches();
    expect(first.length).toBeGreaterThan(0);
    expect(statusOf(status())).toMatchObject({ ok: true });
    expect(statusOf(status()).message).toMatch(/the next run continues/);
    expect(docProps().LINEN_CACHE_GENERATION).toBe(generation);
    expect(docProps().LINEN_REFRESH_PENDING).toBeDefined();
    expect(h.world.formulaWrites).toHaveLength(0);
    const pending = JSON.parse(docProps().LINEN_REFRESH_PENDING!).generation;

    h.world.clock!.perFetchMs = 0;
    later(3_600_000);
    h.fireTriggers();
    const second = h.takeFetches();
    // What the first run stored is not fetched again.
    expect(second.some((f) => first.some((g) => g.url === f.url))).toBe(false);
    expect(statusOf(status())).toMatchObject({
      ok: true,
      message: expect.stringMatching(/^Refreshed 300 Linen formulas/),
    });
    expect(docProps().LINEN_CACHE_GENERATION).toBe(pending);
    expect(docProps().LINEN_REFRESH_PENDING).toBeUndefined();
    expect(h.world.formulaWrites.length).toBe(600);
    h.world.formulaWrites.length = 0;
    runCells();
    expect(h.takeFetches()).toHaveLength(0);
  });
});

describe('whose key, and the one trigger', () => {
  it("keeps one hourly trigger, the owner's, and removes it when turned off", () => {
    expect(turnOn('4h').error).toBeUndefined();
    expect(turnOn('daily').error).toBeUndefined();
    expect(h.world.triggers).toHaveLength(1);
    expect(h.world.triggers[0]).toMatchObject({
      handler: 'linenScheduledRun',
      owner: 'owner@example.com',
      clock: { everyHours: 1 },
    });
    expect(h.menu('linenSaveSchedule', { refresh: 'off', hour: 6, history: false }).error).toBeUndefined();
    expect(h.world.triggers).toHaveLength(0);
    // A trigger of mine this spreadsheet no longer knows about stands in the way of a new one (one per person).
    h.world.triggers.push({
      id: 'lost',
      handler: 'linenScheduledRun',
      owner: 'owner@example.com',
      document: 'sheet-1',
      clock: {},
    });
    expect(turnOn().error).toBe(
      'You already have a Linen Connect trigger in this spreadsheet from an earlier setup: remove it under Extensions > Apps Script > Triggers, then save again.',
    );
    h.world.triggers = [];
    expect(h.menu('linenSaveSchedule', { refresh: 'weekly', hour: 6 }).error).toBe(
      'Choose how often to refresh: off, every hour, every 4 hours or daily.',
    );
    expect(h.menu('linenSaveSchedule', { refresh: 'daily', hour: 24 }).error).toBe('Choose an hour between 0 and 23.');
  });

  it("an editor cannot turn it on: the schedule would run with the editor's key, the formulas use the owner's", () => {
    const r = h.menuAs('editor@example.com', 'linenSaveSchedule', { refresh: 'hourly', hour: 6, history: false });
    expect(r.error).toBe(
      "Only the spreadsheet's owner, owner@example.com, can turn this on: formulas use the owner's API key, and a schedule runs with the key of whoever turns it on.",
    );
    expect(h.world.triggers).toHaveLength(0);
  });

  it("in a shared drive (no owner) a run whose key is not the cells' warms nothing and says why", () => {
    h.world.ownerInSharedDrive = true;
    h.backing.propsSet('user:editor@example.com', 'LINEN_API_KEY', KEYS.hotel);
    try {
      coldCells();
      h.cell('LINEN_CUSTOMERS'); // the cells note the digest of the key they use when they fetch
      expect(h.menuAs('editor@example.com', 'linenSaveSchedule', { refresh: 'hourly', hour: 6 }).error).toBeUndefined();
      h.takeFetches();
      later(3_600_000);
      h.fireTriggers();
      expect(h.takeFetches()).toHaveLength(0);
      expect(statusOf(status())).toMatchObject({
        ok: false,
        message: expect.stringMatching(
          /^Formulas in this spreadsheet use another API key than the one saved by editor@example.com/,
        ),
      });
      expect(h.menuAs('editor@example.com', 'linenSaveSchedule', { refresh: 'off', hour: 6 }).error).toBeUndefined();
    } finally {
      h.world.ownerInSharedDrive = false;
    }
  });

  it('a trigger left from an earlier schedule removes itself instead of running', () => {
    expect(turnOn().error).toBeUndefined();
    const current = h.world.triggers[0]!.id;
    h.world.triggers.push({ ...h.world.triggers[0]!, id: 'left-over', owner: 'editor@example.com' });
    h.takeFetches();
    later(3_600_000);
    h.fireTriggers();
    expect(h.world.triggers.map((t) => t.id)).toEqual([current]);
  });

  it('a run that needs authorization again does nothing and says so', () => {
    h.world.needsAuthorization.add('owner@example.com');
    try {
      h.takeFetches();
      later(3_600_000);
      h.fireTriggers();
      expect(h.takeFetches()).toHaveLength(0);
      expect(statusOf(status())).toMatchObject({
        ok: false,
        message: 'Linen Connect needs to be authorized again: open Extensions > Linen Connect > Auto-refresh... once.',
      });
    } finally {
      h.world.needsAuthorization.clear();
    }
  });

  it('outside a document it neither fetches nor writes to the script cache in place of the document cache', () => {
    const scriptEntries = h.backing.cacheSize('script');
    h.world.documentless = true;
    try {
      h.takeFetches();
      later(3_600_000);
      const runs = h.fireTriggers();
      expect(runs[0]!.error).toBeUndefined();
      expect(h.takeFetches()).toHaveLength(0);
      expect(h.backing.cacheSize('script')).toBe(scriptEntries);
    } finally {
      h.world.documentless = false;
    }
  });

  it('daily at an hour: the refresh runs once, from that hour on (organization time)', () => {
    // A small spreadsheet: the sandbox counts this file's requests against one real minute.
    h.world.sheets = [{ name: 'Small', formulas: [['=LINEN_CUSTOMERS()']] }];
    expect(h.menu('linenSaveSchedule', { refresh: 'daily', hour: 23, history: false }).error).toBeUndefined();
    // Find the next 22:xx in Chicago on the shifted clock, then step an hour at a time.
    const hourNow = () =>
      Number(
        new Intl.DateTimeFormat('en-US', { timeZone: TZ, hour: 'numeric', hourCycle: 'h23' }).format(
          new Date(Date.now() + (h.world.clock?.offsetMs ?? 0)),
        ),
      );
    later(86_400_000); // a day after the last refresh
    while (hourNow() !== 22) later(3_600_000);
    const before = docProps().LINEN_CACHE_GENERATION;
    h.fireTriggers();
    expect(docProps().LINEN_CACHE_GENERATION).toBe(before);
    later(3_600_000);
    h.fireTriggers();
    const refreshed = docProps().LINEN_CACHE_GENERATION;
    expect(refreshed).not.toBe(before);
    later(600_000);
    h.fireTriggers();
    expect(docProps().LINEN_CACHE_GENERATION).toBe(refreshed);
    h.menu('linenSaveSchedule', { refresh: 'off', hour: 6, history: false });
  });
});

describe('what a refresh can foresee', () => {
  it('reads named ranges and cells on other sheets; a call that needs Sheets itself is left to its cell', () => {
    h.world.clock = undefined;
    h.world.sheets = [
      { name: 'Params', formulas: [], values: [['Customer', 'Harborview Hotel']] },
      {
        name: 'Report',
        formulas: [['=LINEN_BALANCE(Customer)', "=LINEN_TICKETS('Params'!B1)", '=LINEN_SIGNALS(, , A9&"")']],
        values: [],
      },
    ];
    h.world.namedRanges = { Customer: { sheet: 'Params', a1: 'B1' } };
    h.takeFetches();
    expect(h.menu('linenRefreshData').value).toBe(3);
    expect(h.takeFetches().length).toBeGreaterThan(0);
    // Both foreseen calls read the warm cache; the third fetches for itself.
    h.cell('LINEN_BALANCE', 'Harborview Hotel');
    h.cell('LINEN_TICKETS', 'Harborview Hotel');
    expect(h.takeFetches()).toHaveLength(0);
    h.cell('LINEN_SIGNALS', undefined, undefined, 'Harborview Hotel');
    expect(h.takeFetches()).toHaveLength(1);
  });
});

/** The cells' cache goes cold (a new generation), as after a while. */
function coldCells() {
  h.setDocProp('LINEN_CACHE_GENERATION', String(Math.random()));
}
