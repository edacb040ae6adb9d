/**
 * Daily history: "Record history" writes one row per customer and day to the sheet Linen history, with values
 * the sandbox's data gives; recording a day again replaces its rows; the daily trigger records once a day.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SandboxData } from '../../sandbox/index.ts';
import { type Harness, KEYS, startHarness, TZ } from '../support/apps-script-harness.ts';
import type { FakeSheet } from '../support/apps-script-spreadsheet.ts';
import { chicagoMidnight } from '../support/refresh-sheet.ts';

let h: Harness;
let d: SandboxData;

/** Put the executions' clock at `day` 09:00 in Chicago (the sandbox's data ends on 2026-11-05). */
const at = (day: string, hour = 9) => {
  const target = chicagoMidnight(day).getTime() + hour * 3_600_000;
  h.world.clock = { offsetMs: target - Date.now(), perFetchMs: 0 };
};
const history = () => h.world.sheets.find((s) => s.name === 'Linen history') as FakeSheet;
const rows = () => (history().values ?? []).slice(1).filter((r) => r.length);
const dayOf = (v: unknown) => new Intl.DateTimeFormat('en-CA', { timeZone: TZ }).format(v as Date);
/** What "shortfall" means on every surface: streaks and circulation breaches. */
const SHORTFALL = new Set(['shortfall_streak', 'circulation_breach']);

beforeAll(async () => {
  h = await startHarness();
  d = h.sb.data;
});
afterAll(async () => {
  await h?.close();
});

describe('Record history', () => {
  it('appends one row per customer with the documented columns and formats', () => {
    at('2026-11-05');
    const r = h.menu('linenRecordHistoryNow');
    expect(r.error).toBeUndefined();
    const sheet = history();
    expect(sheet.values![0]).toEqual([
      'Date',
      'Customer',
      'Customer id',
      'Fill rate (7 days)',
      'Par met (7 days)',
      'Open shortfall signals',
      'Open balance',
      '61+ days',
      'Currency',
      'Open tickets',
    ]);
    expect(sheet.frozenRows).toBe(1);
    expect(rows().map((x) => x[1])).toEqual([...d.customers].map((c) => c.name).sort((a, b) => a.localeCompare(b)));
    expect(rows().every((x) => dayOf(x[0]) === '2026-11-05')).toBe(true);
    expect(sheet.styles?.['2,1']?.numberFormat).toBe('yyyy-mm-dd');
    expect(sheet.styles?.['2,4']?.numberFormat).toBe('0.0%');
    expect(sheet.styles?.['2,7']?.numberFormat).toBe('#,##0.00');
  });

  it('the figures are those of the last 7 complete days, the open signals, the balance and the open tickets', () => {
    const mercy = d.customers.find((c) => c.name === 'Mercy General Hospital')!;
    const row = rows().find((x) => x[1] === mercy.name)!;
    const week = d.daily_deliveries.filter(
      (r) =>
        r.customer_id === mercy.id &&
        r.date >= '2026-10-29' &&
        r.date <= '2026-11-04' &&
        r.daily_par &&
        r.daily_par > 0,
    );
    const delivered = week.reduce((s, r) => s + r.delivered_count, 0);
    const par = week.reduce((s, r) => s + r.daily_par!, 0);
    expect(row[3]).toBeCloseTo(delivered / par, 10);
    const met = week.reduce((s, r) => s + Math.min(r.delivered_count, r.daily_par!), 0);
    expect(row[4]).toBeCloseTo(met / par, 10);
    expect(row[5]).toBe(
      d.signals.filter((s) => s.customer_id === mercy.id && s.status === 'open' && SHORTFALL.has(s.kind)).length,
    );
    expect(row[6]).toBe(h.cell('LINEN_BALANCE', mercy.name).value);
    const aging = h.cell('LINEN_AGING', mercy.name).value as unknown[][];
    expect(row[7]).toBe(aging[1]![5]);
    expect(row[8]).toBe('USD');
    expect(row[9]).toBe(
      d.tickets.filter((t) => t.customer_id === mercy.id && ['new', 'acknowledged', 'in_progress'].includes(t.status))
        .length,
    );
  });

  it('recording the same day again replaces its rows; another day is added after it', () => {
    const before = rows().length;
    expect(h.menu('linenRecordHistoryNow').error).toBeUndefined();
    expect(rows()).toHaveLength(before);
    at('2026-11-06');
    expect(h.menu('linenRecordHistoryNow').error).toBeUndefined();
    expect(rows()).toHaveLength(before * 2);
    expect(rows().map((x) => dayOf(x[0]))).toEqual([
      ...Array(before).fill('2026-11-05'),
      ...Array(before).fill('2026-11-06'),
    ]);
  });

  it('a key without accounting leaves the balance columns empty and says so', () => {
    h.setKey(KEYS.mercyOps);
    try {
      at('2026-11-07');
      const r = h.menu('linenRecordHistoryNow');
      expect(r.error).toBeUndefined();
      const day = rows().filter((x) => dayOf(x[0]) === '2026-11-07');
      expect(day.map((x) => x[1])).toEqual(['Mercy General Hospital', 'Mercy Health']);
      for (const x of day) expect([x[6], x[7], x[8]]).toEqual(['', '', '']);
      expect((r.value as { lastHistory: string }).lastHistory).toMatch(/\(no balances: the key lacks that access\)\.$/);
    } finally {
      h.setKey(KEYS.all);
    }
  });

  it('a revoked key records nothing and says why', () => {
    const before = rows().length;
    h.setKey(KEYS.revoked);
    try {
      at('2026-11-08');
      expect(h.menu('linenRecordHistoryNow').error).toBe(
        'The Linen API rejected the API key (revoked or mistyped): set a valid one with Extensions > Linen Connect > Set API key... No history was recorded.',
      );
      expect(rows()).toHaveLength(before);
    } finally {
      h.setKey(KEYS.all);
    }
  });
});

describe('the daily run', () => {
  it('records once a day, from the chosen hour on', () => {
    expect(h.menu('linenSaveSchedule', { refresh: 'off', hour: 6, history: true }).error).toBeUndefined();
    const count = (day: string) => rows().filter((x) => dayOf(x[0]) === day).length;
    at('2026-11-09', 5);
    h.fireTriggers();
    expect(count('2026-11-09')).toBe(0);
    at('2026-11-09', 7);
    h.takeFetches();
    h.fireTriggers();
    expect(count('2026-11-09')).toBe(d.customers.length);
    expect(h.takeFetches().length).toBeGreaterThan(0);
    at('2026-11-09', 8);
    h.fireTriggers();
    expect(h.takeFetches()).toHaveLength(0);
    expect(count('2026-11-09')).toBe(d.customers.length);
  });
});
