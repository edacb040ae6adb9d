/**
 * What a cell of Excel gets: arguments as Excel passes them (date cells as serial numbers, text days, an omitted
 * argument as null, an empty cell as 0 on Windows), dates back as serial numbers formatted where the runtime
 * supports formatted number values, and every failure as a `CustomFunctions.Error` (#VALUE! for a wrong argument,
 * #N/A for the rest) carrying the sentence Sheets shows, the remedy naming the task pane instead of the menu.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ExcelHarness, startExcelHarness, startExcelService, TZ } from '../support/excel-harness.ts';
import { type CellResult, loadExcelRuntime } from '../support/excel-runtime.ts';
import { wallClockSerial } from '../support/wall-clock.ts';

let h: ExcelHarness;
beforeAll(async () => {
  h = await startExcelHarness();
}, 60_000);
afterAll(async () => {
  await h?.close();
});

const KEYS = {
  mercyOps: 'lk_live_demo_mercy_ops',
  mercyBilling: 'lk_live_demo_mercy_billing',
  hotel: 'lk_live_demo_harbor_hotel',
  revoked: 'lk_live_demo_revoked',
};
const FROM = '2026-10-01';
const TO = '2026-10-31';
/** 2026-10-01 and 2026-10-31 as Excel's 1900 date system numbers them. */
const FROM_SERIAL = 46296;
const TO_SERIAL = 46326;
const TASK_PANE = 'the task pane (Home > Linen Connect)';

const value = (r: CellResult) => {
  if (!('value' in r)) throw new Error(`the cell failed: ${r.error.code} ${r.error.message}`);
  return r.value;
};
const failure = (r: CellResult) => {
  if (!('error' in r)) throw new Error(`the cell answered ${JSON.stringify(r.value)}`);
  return r.error;
};
const withKey = (key: string | null) =>
  h.runtime({ storage: key === null ? { LINEN_TIMEZONE: TZ } : { LINEN_API_KEY: key, LINEN_TIMEZONE: TZ } });

describe('arguments as Excel passes them', () => {
  it('a date cell (a serial number) and a YYYY-MM-DD day give the same fill rate', async () => {
    const rt = h.runtime();
    const byText = value(await rt.call('FILLRATE', 'Mercy General Hospital', FROM, TO, 'ICU'));
    expect(typeof byText).toBe('number');
    expect(value(await rt.call('FILLRATE', 'Mercy General Hospital', FROM_SERIAL, TO_SERIAL, 'ICU'))).toBe(byText);
    // A date-time cell counts for its day.
    expect(value(await rt.call('FILLRATE', 'Mercy General Hospital', FROM_SERIAL + 0.75, TO_SERIAL, 'ICU'))).toBe(
      byText,
    );
  });

  it('an omitted optional argument (null) is blank, and so is an empty date cell (0 in Excel on Windows)', async () => {
    const rt = h.runtime();
    const all = value(await rt.call('INVOICES', 'Mercy General Hospital'));
    expect(value(await rt.call('INVOICES', 'Mercy General Hospital', null, null, null))).toEqual(all);
    expect(value(await rt.call('INVOICES', 'Mercy General Hospital', 0, 0, ''))).toEqual(all);
  });

  it('a ticket number, one cell of a range, or a range giving a column of statuses (empty cells blank)', async () => {
    const rt = h.runtime();
    expect(value(await rt.call('TICKET', [['TKT-26-00417']]))).toEqual([['Submitted']]);
    const column = value(await rt.call('TICKET', [['TKT-26-00417'], [0], ['TKT-26-99999']])) as unknown[][];
    expect(column).toEqual([['Submitted'], [''], ['Not found']]);
  });
});

describe('dates back', () => {
  const firstInvoiceIssued = async (requirements: Record<string, string>) => {
    const rt = h.runtime({ requirements });
    const table = value(await rt.call('INVOICES', 'Mercy General Hospital', FROM, TO)) as unknown[][];
    const at = (table[0] as string[]).indexOf('Issued');
    return table[1]![at];
  };

  it('as Double cell values with a date-time format where ExcelApi 1.19 and CustomFunctionsRuntime 1.4 are supported', async () => {
    const cell = await firstInvoiceIssued({ CustomFunctionsRuntime: '1.4', ExcelApi: '1.19' });
    expect(cell).toMatchObject({ type: 'Double', numberFormat: 'yyyy-mm-dd hh:mm' });
  });

  it('as FormattedNumber cell values with ExcelApi 1.16', async () => {
    const cell = await firstInvoiceIssued({ CustomFunctionsRuntime: '1.4', ExcelApi: '1.16' });
    expect(cell).toMatchObject({ type: 'FormattedNumber', numberFormat: 'yyyy-mm-dd hh:mm' });
  });

  it('as plain serial numbers where custom functions cannot return data types', async () => {
    const cell = await firstInvoiceIssued({ CustomFunctionsRuntime: '1.3', ExcelApi: '1.19' });
    expect(typeof cell).toBe('number');
  });

  it("a day is a whole serial number; a time is the organization's wall clock", async () => {
    const rt = h.runtime({ requirements: { CustomFunctionsRuntime: '1.3' } });
    const rows = value(await rt.call('DELIVERIES', 'Mercy General Hospital', FROM, FROM)) as unknown[][];
    expect(rows.slice(1).every((r) => r[0] === FROM_SERIAL)).toBe(true);
    const invoice = h.sandbox.data.invoices.find((i) => i.issued_at.startsWith('2026-10'))!;
    const serial = wallClockSerial(new Date(invoice.issued_at), TZ);
    const table = value(await rt.call('INVOICES', '', FROM, TO)) as unknown[][];
    const row = table.find((r) => r[0] === invoice.invoice_number)!;
    expect(row[(table[0] as string[]).indexOf('Issued')]).toBeCloseTo(serial, 6);
  });
});

describe('errors as Excel shows them', () => {
  it('a wrong argument is #VALUE! with the sentence Sheets shows', async () => {
    const rt = h.runtime();
    expect(failure(await rt.call('FILLRATE', 'Mercy General Hospital', '2026-13-01', TO))).toEqual({
      code: '#VALUE!',
      message: 'from must be a date or a day written YYYY-MM-DD, not "2026-13-01".',
    });
    expect(failure(await rt.call('FILLRATE', 'Nowhere Clinic', FROM, TO))).toEqual({
      code: '#VALUE!',
      message: 'No customer named "Nowhere Clinic" is visible to this key.',
    });
    expect(failure(await rt.call('INVOICES', null, null, null, 'open'))).toEqual({
      code: '#VALUE!',
      message: 'status must be one of sent, partially_paid, paid, not "open".',
    });
  });

  it('no key saved: #N/A saying in one sentence how to connect', async () => {
    const r = failure(await withKey(null).call('FILLRATE', 'Mercy General Hospital', FROM, TO));
    expect(r).toEqual({
      code: '#N/A',
      message: `No Linen API key is set in Excel on this computer: open ${TASK_PANE}, paste your key and choose Connect.`,
    });
  });

  it('a revoked key names the task pane where Sheets names its menu', async () => {
    expect(failure(await withKey(KEYS.revoked).call('CUSTOMERS'))).toEqual({
      code: '#N/A',
      message: `The Linen API rejected the API key (revoked or mistyped): set a valid one with ${TASK_PANE}`,
    });
  });

  it('a key without a scope says which access is missing', async () => {
    expect(failure(await withKey(KEYS.mercyOps).call('INVOICES', 'Mercy General Hospital'))).toEqual({
      code: '#N/A',
      message: 'This key has no accounting access: ask your linen provider for a key that includes it.',
    });
    expect(failure(await withKey(KEYS.mercyBilling).call('FILLRATE', 'Mercy General Hospital', FROM, TO))).toEqual({
      code: '#N/A',
      message:
        'This key has no processing (deliveries, manifests, inventory) access: ask your linen provider for a key that includes it.',
    });
  });

  it('a hundred cells failing on a missing scope cost one request', async () => {
    const rt = withKey(KEYS.mercyOps);
    const before = h.sandbox.requests.count;
    const results = await Promise.all(Array.from({ length: 100 }, () => rt.call('BALANCE')));
    expect(results.every((r) => 'error' in r && r.error.code === '#N/A')).toBe(true);
    expect(h.sandbox.requests.count - before).toBe(1);
  });

  it('a lasting 500 gives the request id to quote; the raw envelope never shows', async () => {
    const rt = h.runtime();
    h.sandbox.faults.enqueue({ kind: '500', count: 20 });
    try {
      const r = failure(await rt.call('ITEMS'));
      expect(r.code).toBe('#N/A');
      expect(r.message).toMatch(/^The Linen API had an internal error \(request req_\w+\); quote it to support\.$/);
    } finally {
      h.sandbox.faults.reset();
    }
  }, 60_000);

  it('an API the relay cannot reach says so, as Sheets does', async () => {
    const service = await startExcelService(h.dir, 'http://127.0.0.1:9/v1');
    try {
      const rt = loadExcelRuntime({ dir: h.dir, origin: service.origin, storage: { LINEN_API_KEY: KEYS.hotel } });
      expect(failure(await rt.call('CUSTOMERS'))).toEqual({
        code: '#N/A',
        message: 'Could not reach the Linen API; check the network and try again.',
      });
    } finally {
      await service.close();
    }
  }, 90_000);
});
