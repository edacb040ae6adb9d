/**
 * The fill rate and par met a shortfall digest's line shows, for every customer, department and item of a day's
 * delivery rows, against an independent reading of the same rows (test/support/expected-figures.ts); a row of no
 * department counts across its customer only.
 */
import { describe, expect, it } from 'vitest';
import { fillRateOf } from '../../../chat/digests/kinds/shortfall.ts';
import { loadSandboxData } from '../../../sandbox/index.ts';
import type { DailyDeliveryRow } from '../../../shared/index.ts';
import { TODAY, TZ } from '../../support/digest-env.ts';
import { expectedFill } from '../../support/expected-figures.ts';

describe("a digest line's fill rate", () => {
  it("matches the day's rows for every customer, department and item, and across each customer", async () => {
    const data = await loadSandboxData({ today: TODAY, timeZone: TZ, seed: 'linen' });
    const day = data.daily_deliveries.filter((r) => r.date === '2026-11-04');
    // One row of no department: it counts toward its customer's total, never toward a department's.
    const noDepartment = {
      ...day.find((r) => r.department_id !== null && (r.daily_par ?? 0) > 0)!,
      department_id: null,
    };
    const rows = [...day, noDepartment] as unknown as DailyDeliveryRow[];
    expect(day.length).toBeGreaterThan(50);
    const combos = new Set(
      rows.flatMap((r) => [`${r.customer_id}|${r.department_id ?? ''}|${r.item_id}`, `${r.customer_id}||${r.item_id}`]),
    );
    let checked = 0;
    for (const combo of combos) {
      const [customerId, departmentId, itemId] = combo.split('|') as [string, string, string];
      const dept = departmentId === '' ? null : departmentId;
      const mine = rows.filter(
        (r) =>
          r.customer_id === customerId &&
          r.item_id === itemId &&
          (dept === null || r.department_id === dept) &&
          r.daily_par !== null &&
          r.daily_par > 0,
      );
      const got = fillRateOf(rows, customerId, dept, itemId);
      if (mine.length === 0) {
        expect(got).toBeNull();
        continue;
      }
      const want = expectedFill(mine as never);
      expect(got).toEqual({ delivered: want.delivered, par: want.par, rate: want.fill, parMet: want.parMet });
      checked++;
    }
    expect(checked).toBeGreaterThan(20);
    // Another day's rows are read afresh, not from the first day's totals.
    const other = data.daily_deliveries.filter((r) => r.date === '2026-11-03') as unknown as DailyDeliveryRow[];
    const r0 = other.find((r) => (r.daily_par ?? 0) > 0)!;
    const want = expectedFill(
      other.filter((r) => r.customer_id === r0.customer_id && r.item_id === r0.item_id) as never,
    );
    expect(fillRateOf(other, r0.customer_id, null, r0.item_id)?.delivered).toBe(want.delivered);
  });
});
