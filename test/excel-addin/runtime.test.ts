/**
 * The built runtime page's scripts in Excel's shared runtime (a `vm` with Office's globals and a fetch that
 * enforces CORS): every LINEN function is registered under its Excel name, reaches the API only through the
 * service's relay, and gives the answer the Sheets add-on gives for the same formula, dates as serial numbers.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseFormula } from '../../scripts/sheets.ts';
import { FUNCTIONS } from '../../shared/cells/catalog.ts';
import { plain } from '../support/apps-script-fakes.ts';
import { type Harness, startHarness } from '../support/apps-script-harness.ts';
import { DEMO_KEY, type ExcelHarness, startExcelHarness, TZ } from '../support/excel-harness.ts';
import { wallClockText } from '../support/wall-clock.ts';

let h: ExcelHarness;
beforeAll(async () => {
  h = await startExcelHarness();
}, 60_000);
afterAll(async () => {
  await h?.close();
});

const SERIAL_EPOCH = Date.UTC(1899, 11, 30);

/** A serial number (or a formatted one) as `YYYY-MM-DD hh:mm:ss`. */
function serialText(serial: number): string {
  const ms = Math.round((serial * 86_400_000) / 1000) * 1000;
  return new Date(SERIAL_EPOCH + ms).toISOString().slice(0, 19).replace('T', ' ');
}

const isFormatted = (v: unknown): v is { type: string; basicValue: number; numberFormat: string } =>
  typeof v === 'object' && v !== null && 'basicValue' in v;

/** A cell as both spreadsheets can be compared: dates as their wall-clock text, the rest as it is. */
function comparable(v: unknown, dates: 'sheets' | 'excel'): unknown {
  if (Array.isArray(v)) return v.map((x) => comparable(x, dates));
  if (dates === 'sheets' && v instanceof Date) return wallClockText(v, TZ);
  if (dates === 'excel' && isFormatted(v)) return serialText(v.basicValue);
  return v;
}

describe('the runtime page', () => {
  it('registers every function of the catalog under its Excel name (LINEN_FILLRATE is LINEN.FILLRATE)', async () => {
    const rt = h.runtime();
    await rt.ready;
    expect(rt.registered.sort()).toEqual(FUNCTIONS.map((f) => f.name.replace(/^LINEN_/, '')).sort());
  });

  it("cannot call the API's origin (no CORS headers), and reaches it through the relay on its own origin", async () => {
    const rt = h.runtime();
    await expect(
      rt.pageFetch(`${h.sandbox.baseUrl}/customers`, { headers: { authorization: `Bearer ${DEMO_KEY}` } }),
    ).rejects.toThrow('Failed to fetch');
    expect(rt.fetches.at(-1)).toMatchObject({ blocked: true });

    const before = h.sandbox.requests.count;
    const r = await rt.call('CUSTOMERS');
    expect('value' in r && Array.isArray(r.value)).toBe(true);
    expect(h.sandbox.requests.count).toBeGreaterThan(before);
    expect(rt.fetches.length).toBeGreaterThan(1);
    for (const f of rt.fetches.slice(1)) {
      expect(f.url.startsWith(`${h.origin}/excel/api/v1/`)).toBe(true);
      expect(f.status).toBe(200);
    }
  });
});

describe('the same answers as Sheets', () => {
  let sheets: Harness;
  beforeAll(async () => {
    sheets = await startHarness();
  }, 60_000);
  afterAll(async () => {
    await sheets?.close();
  });

  it.each(FUNCTIONS.map((f) => [f.example]))('%s', async (example) => {
    const { name, args } = parseFormula(example);
    const inSheets = sheets.cell(name, ...args);
    expect(inSheets.error).toBeUndefined();
    const rt = h.runtime();
    const inExcel = await rt.call(name.replace(/^LINEN_/, ''), ...args.map((a) => a ?? null));
    expect('value' in inExcel).toBe(true);
    const excelValue = (inExcel as { value: unknown }).value;
    const sheetsValue = plain(inSheets.value);
    // A function that may spill is a table in Excel even when it answers one value.
    const shaped = Array.isArray(excelValue) && !Array.isArray(sheetsValue) ? [[sheetsValue]] : sheetsValue;
    expect(comparable(excelValue, 'excel')).toEqual(comparable(shaped, 'sheets'));
  });
});
