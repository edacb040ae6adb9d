/**
 * `npm run excel` prints what a cell of Excel shows, from the built add-in against the sandbox: for the same
 * formula, the same text `npm run sheets` prints for Sheets (dates in the organization's time), but for an error's
 * code (#N/A or #VALUE! where Sheets shows #ERROR!).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildExcelAddin } from '../../scripts/build-excel-addin.ts';
import { evaluate as inExcel } from '../../scripts/excel.ts';
import { evaluate as inSheets } from '../../scripts/sheets.ts';

const ENV = { SANDBOX_TODAY: '2026-11-05' };
let dist: string;
beforeAll(async () => {
  dist = mkdtempSync(join(tmpdir(), 'linen-excel-cli-'));
  await buildExcelAddin({ outDir: dist, quiet: true });
}, 60_000);
afterAll(() => rmSync(dist, { recursive: true, force: true }));

describe('npm run excel', () => {
  it.each([
    '=LINEN.FILLRATE("Mercy General", "2026-10-01", "2026-10-31")',
    '=LINEN.DELIVERIES("Mercy General Hospital", DATE(2026,10,1), DATE(2026,10,2), "ICU")',
    '=LINEN.INVOICES("Mercy General Hospital", , , "sent")',
    '=LINEN.TICKET("TKT-26-00417")',
  ])('%s prints what Sheets prints', async (formula) => {
    const excel = await inExcel(formula, ENV, dist);
    const sheets = await inSheets(formula.replace('=LINEN.', '=LINEN_'), ENV);
    expect(excel.ok).toBe(true);
    expect(excel.text).toBe(sheets.text);
    expect(excel.text.length).toBeGreaterThan(0);
  });

  it('prints an error as the cell shows it, and fails', async () => {
    const excel = await inExcel('=LINEN.FILLRATE("Nowhere Clinic", "2026-10-01", "2026-10-31")', ENV, dist);
    expect(excel).toMatchObject({
      ok: false,
      text: '#VALUE! No customer named "Nowhere Clinic" is visible to this key.',
    });
    await expect(inExcel('=LINEN_FILLRATE("Mercy General")', ENV, dist)).rejects.toThrow(
      'Write a formula like =LINEN.FILLRATE("Mercy General Hospital", "2026-10-01", "2026-10-31").',
    );
  });
});
