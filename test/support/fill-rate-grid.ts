/**
 * The sheet the recalculation figures are measured on, in Excel as in Sheets: LINEN.FILLRATE cells over one
 * customer and two months, items down and department columns across (all departments, then the customer's own,
 * repeating), written with ids (the naive baseline's own arguments) and the same cells by name.
 */
import type { SandboxData } from '../../sandbox/index.ts';
import { BULK_LIMIT } from '../../shared/core/walk.ts';

export const MONTHS = [
  ['2026-09-01', '2026-09-30'],
  ['2026-10-01', '2026-10-31'],
] as const;

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
