/**
 * A spreadsheet of LINEN_ formulas as people build them, for the refresh tests and benchmark: one sheet per
 * customer with the customer and the month in cells B1:B3, a fill-rate grid of items by departments that
 * refers to them, and the customer's balance, aging, tickets, signals, invoices and deliveries around it.
 * Each cell comes with the call Sheets would make (its arguments as values), so a test can run the cells
 * without reading the formulas.
 */
import type { SandboxData } from '../../sandbox/index.ts';
import { createWorld, loadProject, runOnce } from './apps-script-fakes.ts';
import { type Harness, KEYS, TODAY, TZ } from './apps-script-harness.ts';
import { a1Of, type FakeSheet } from './apps-script-spreadsheet.ts';
import { memoryBacking } from './apps-script-store.ts';
import { BlockingTransport, startWorkerSandbox } from './worker-sandbox.ts';

export interface PlannedCell {
  sheet: string;
  a1: string;
  formula: string;
  call: { name: string; args: unknown[] };
}

/** Midnight of an org-local day in America/Chicago (how Sheets passes a date cell to a custom function). */
export const chicagoMidnight = (day: string) => {
  const noon = new Date(`${day}T12:00:00Z`);
  const offsetH = Number(
    new Intl.DateTimeFormat('en-US', { timeZone: 'America/Chicago', hour: 'numeric', hourCycle: 'h23' }).format(noon),
  );
  return new Date(noon.getTime() - offsetH * 3600_000);
};

export function refreshSheets(
  data: SandboxData,
  o: { customers: number; cellsPerCustomer: number; from: string; to: string },
): { sheets: FakeSheet[]; cells: PlannedCell[] } {
  const customers = data.customers.filter((c) => !c.is_group).slice(0, o.customers);
  const sheets: FakeSheet[] = [];
  const cells: PlannedCell[] = [];
  const from = chicagoMidnight(o.from);
  const to = chicagoMidnight(o.to);
  for (const c of customers) {
    const rows = data.daily_deliveries.filter((r) => r.customer_id === c.id && r.date >= o.from && r.date <= o.to);
    const depts = [...new Set(rows.map((r) => r.department_name).filter((d): d is string => d !== null))].slice(0, 5);
    const items = [...new Set(rows.map((r) => r.item_name))];
    const name = c.name.slice(0, 30);
    const sheet: FakeSheet = {
      name,
      formulas: [],
      values: [['Customer', c.name], ['From', from], ['To', to], [], ['Item', ...depts], ...items.map((i) => [i])],
    };
    const put = (row: number, column: number, formula: string, callName: string, args: unknown[]) => {
      sheet.formulas[row - 1] ??= [];
      sheet.formulas[row - 1]![column - 1] = formula;
      cells.push({ sheet: name, a1: a1Of(row, column), formula, call: { name: callName, args } });
    };
    let n = 0;
    for (const [i, item] of items.entries()) {
      for (const [j, dept] of depts.entries()) {
        if (n >= o.cellsPerCustomer - 10) break;
        const col = a1Of(5, 2 + j).replace(/\d+$/, '');
        put(6 + i, 2 + j, `=LINEN_FILLRATE($B$1, $B$2, $B$3, ${col}$5, $A${6 + i})`, 'LINEN_FILLRATE', [
          c.name,
          from,
          to,
          dept,
          item,
        ]);
        n++;
      }
    }
    const quoted = JSON.stringify(c.name);
    const extras: [string, string, unknown[]][] = [
      ['=LINEN_BALANCE($B$1)', 'LINEN_BALANCE', [c.name]],
      ['=LINEN_AGING($B$1)', 'LINEN_AGING', [c.name]],
      ['=LINEN_TICKETS($B$1)', 'LINEN_TICKETS', [c.name]],
      ['=LINEN_SIGNALS(, , $B$1)', 'LINEN_SIGNALS', [undefined, undefined, c.name]],
      ['=IFERROR(LINEN_INVOICES($B$1, , , "sent"), "")', 'LINEN_INVOICES', [c.name, undefined, undefined, 'sent']],
      [`=LINEN_DELIVERIES(${quoted}, $B$2, $B$3)`, 'LINEN_DELIVERIES', [c.name, from, to]],
      ['=LINEN_FILLRATE($B$1, $B$2, $B$3)', 'LINEN_FILLRATE', [c.name, from, to]],
      [
        `=LINEN_FILLRATE($B$1, DATE(${o.from.slice(0, 4)}, ${Number(o.from.slice(5, 7))}, 1), $B$3)*100`,
        'LINEN_FILLRATE',
        [c.name, chicagoMidnight(`${o.from.slice(0, 7)}-01`), to],
      ],
    ];
    for (let k = 0; n < o.cellsPerCustomer; k++, n++) {
      const [formula, callName, args] = extras[k % extras.length]!;
      put(2 + Math.floor(k / 4), 10 + (k % 4), formula, callName, args);
    }
    sheets.push(sheet);
  }
  return { sheets, cells };
}

/**
 * The distinct pages the cells need, counted the way they are fetched without a refresh: a cold recalculation
 * (on a second sandbox with the same data and no rate limit) in which each cell fetches what it misses and
 * every listing lands in the shared cache once. Also the value of each cell.
 */
export async function coldRecalculation(
  h: Harness,
  cells: readonly PlannedCell[],
): Promise<{ pages: number; values: unknown[] }> {
  const sb = await startWorkerSandbox({ today: TODAY, timeZone: TZ });
  const http = new BlockingTransport();
  try {
    const backing = memoryBacking();
    const world = createWorld({ backing, http, htmlDir: h.dir, spreadsheetTimeZone: TZ });
    backing.propsSet(`user:${world.owner}`, 'LINEN_API_KEY', KEYS.all);
    backing.propsSet(`doc:${world.spreadsheetId}`, 'LINEN_BASE_URL', sb.baseUrl);
    const scripts = loadProject(h.dir);
    const values = cells.map((c) => runOnce(world, scripts, 'custom', c.call.name, ...c.call.args).value);
    return { pages: new Set(world.fetches.map((f) => f.url)).size, values };
  } finally {
    await http.close();
    await sb.close();
  }
}
