/**
 * Figures of the seeded sandbox data that suites assert word for word. They come from the data generated with
 * seed `linen` in America/Chicago as of noon on 2026-11-05 (the TODAY of the digest suites), and
 * test/sandbox/seeded-figures.test.ts recomputes each one from that data: when the seed changes, that test
 * names the figure that moved and its new value before any other suite fails on it.
 */
export const SEEDED_AS_OF = { today: '2026-11-05', timeZone: 'America/Chicago', seed: 'linen' } as const;

export const SEEDED_DIGEST = {
  /** Open and acknowledged `shortfall_streak` and `circulation_breach` signals: what a digest of every customer shows. */
  signals: 6,
  /** Of those, the high-severity ones. */
  highSignals: 4,
  /** The sum of their `suggested_order_qty`. */
  suggestedOrderPieces: 648,
  /** A shortfall streak of the digest: its item and department. */
  streak: { item: 'Pillowcase', department: 'Med-Surg 4 West' },
  /** A customer-wide circulation breach of the digest: its item and suggested order. */
  breach: { item: 'Pillowcase', suggestedOrder: 216 },
  /** A department whose name has an ampersand, which the digest must escape for mrkdwn. */
  ampersandDepartment: 'Food & Beverage',
} as const;
