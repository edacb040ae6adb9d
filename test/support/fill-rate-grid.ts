/**
 * The sheets the recalculation figures are measured on, in Excel as in Sheets: LINEN.FILLRATE cells over one
 * customer and a month or more, items down and department columns across (all departments, then the customer's own,
 * repeating), written with ids (the naive baseline's own arguments) and the same cells by name.
 *
 * `benchmarkGrid` is the benchmark's hundred cells: bench/sheets.ts and bench/excel.ts measure exactly these, and
 * the tests of both add-ins pin what they cost, so the two figures compare like with like.
 */
import type { SandboxData } from '../../sandbox/index.ts';
import { BULK_LIMIT } from '../../shared/core/walk.ts';

const SEPTEMBER = ['2026-09-01', '2026-09-30'] as const;
const OCTOBER = ['2026-10-01', '2026-10-31'] as const;
export const MONTHS = [SEPTEMBER, OCTOBER] as const;
const BENCHMARK_CUSTOMER = 'Mercy General Hospital';

export interface FillRateGrid {
  /** Arguments of each cell: customer, from, to, department, item. */
  byId: string[][];
  byName: string[][];
  /** Pages of GET /deliveries/daily at the API's largest page size, per distinct window. */
  pages: number;
}

export function fillRateGrid(
  data: SandboxData,
  customerName: string,
  months: readonly (readonly [string, string])[] = MONTHS,
  cells = 100,
): FillRateGrid {
  const customer = data.customers.find((c) => c.name === customerName)!;
  const grid: FillRateGrid = { byId: [], byName: [], pages: 0 };
  const columns = 10;
  const itemsPerMonth = Math.ceil(cells / months.length / columns);
  for (const [from, to] of months) {
    const rows = data.daily_deliveries.filter((r) => r.customer_id === customer.id && r.date >= from && r.date <= to);
    grid.pages += Math.ceil(rows.length / BULK_LIMIT);
    const items = [...new Map(rows.map((r) => [r.item_id, r.item_name])).entries()].slice(0, itemsPerMonth);
    const depts: [string, string][] = [['', ''], ...customer.departments.map((d): [string, string] => [d.id, d.name])];
    for (const [itemId, itemName] of items) {
      for (let column = 0; column < columns; column++) {
        const [deptId, deptName] = depts[column % depts.length]!;
        grid.byId.push([customer.id, from, to, deptId, itemId]);
        grid.byName.push([customerName, from, to, deptName, itemName]);
      }
    }
  }
  return grid;
}

/** The benchmark's hundred cells: Mercy General Hospital in October, its first ten items by ten department columns. */
export function benchmarkGrid(data: SandboxData): FillRateGrid {
  return fillRateGrid(data, BENCHMARK_CUSTOMER, [OCTOBER]);
}

/**
 * The requests the benchmark's cells need and no more, in order of their paths without the cursor: the customers
 * list when the cells name the customer, then each page of October's deliveries for the customer at the API's
 * largest page size (the first without a cursor, each next one with the cursor the previous page gave).
 */
export function benchmarkRequests(data: SandboxData, written: 'byId' | 'byName'): string[] {
  const customer = data.customers.find((c) => c.name === BENCHMARK_CUSTOMER)!;
  const listing = `/deliveries/daily?customer_id=${customer.id}&from=${OCTOBER[0]}&to=${OCTOBER[1]}&limit=${BULK_LIMIT}`;
  const pages = benchmarkGrid(data).pages;
  return [
    ...(written === 'byName' ? [`/customers?limit=${BULK_LIMIT}`] : []),
    listing,
    ...Array.from({ length: pages - 1 }, () => `${listing}&cursor=…`),
  ];
}

/** A request URL as `benchmarkRequests` lists it: the path below `/v1` and the query, a cursor's value elided. */
export function apiRequest(url: string): string {
  const { pathname, search } = new URL(url);
  return `${pathname.slice(pathname.indexOf('/v1/') + 3)}${search}`.replace(/cursor=[^&]*/, 'cursor=…');
}
