/** The figures other suites assert word for word, recomputed from the seeded data they come from. */
import { describe, expect, it } from 'vitest';
import { loadSandboxData } from '../../sandbox/index.ts';
import { SEEDED_AS_OF, SEEDED_DIGEST } from '../support/seeded-figures.ts';

const DIGEST_KINDS = new Set(['shortfall_streak', 'circulation_breach']);
const STANDING = new Set(['open', 'acknowledged']);

describe('seeded figures', async () => {
  const data = await loadSandboxData(SEEDED_AS_OF);
  const digestSignals = data.signals.filter((s) => DIGEST_KINDS.has(s.kind) && STANDING.has(s.status));
  const departmentName = (id: string | null) => data.departments.find((d) => d.id === id)?.name;

  it('the digest counts: standing shortfall and circulation signals, the high ones and their suggested order', () => {
    expect(digestSignals.length).toBe(SEEDED_DIGEST.signals);
    expect(digestSignals.filter((s) => s.severity === 'high').length).toBe(SEEDED_DIGEST.highSignals);
    expect(digestSignals.reduce((sum, s) => sum + (s.suggested_order_qty ?? 0), 0)).toBe(
      SEEDED_DIGEST.suggestedOrderPieces,
    );
  });

  it('the shortfall streak the digest names, by item and department', () => {
    const { item, department } = SEEDED_DIGEST.streak;
    const streak = digestSignals.find(
      (s) => s.kind === 'shortfall_streak' && s.item_name === item && departmentName(s.department_id) === department,
    );
    expect(streak).toBeDefined();
  });

  it('the customer-wide circulation breach the digest names, with its suggested order', () => {
    const { item, suggestedOrder } = SEEDED_DIGEST.breach;
    const breach = digestSignals.find(
      (s) => s.kind === 'circulation_breach' && s.item_name === item && s.department_id === null,
    );
    expect(breach?.suggested_order_qty).toBe(suggestedOrder);
  });

  it('a department of a digest customer has an ampersand in its name', () => {
    const withSignals = new Set(digestSignals.map((s) => s.customer_id));
    const names = data.departments.filter((d) => withSignals.has(d.customer_id)).map((d) => d.name);
    expect(names).toContain(SEEDED_DIGEST.ampersandDepartment);
  });
});
