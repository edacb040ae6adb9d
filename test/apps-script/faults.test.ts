/**
 * Custom functions of the built add-on against each Linen API fault of the matrix (test/support/api-faults.ts):
 * what the cell shows, the requests really sent (the sandbox's own log), and another cell served right after.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { API_FAULTS, type ApiFault, expectedRequests } from '../support/api-faults.ts';
import { coldCache, type Harness, startHarness } from '../support/apps-script-harness.ts';

/** The add-on keeps the client's default: three retries. */
const ADDON_RETRIES = 3;

const SENTENCES: Record<NonNullable<ApiFault['sentence']>, RegExp> = {
  // UrlFetchApp takes no timeout: a hung request ends when UrlFetchApp gives up on it, as a failed fetch.
  'not answering':
    /^(The Linen API did not answer in time; try again|Could not reach the Linen API; check the network and try again)\.$/,
  busy: /^The Linen API is busy \(rate limited\); try again in 1 second\.$/,
  'internal error': /^The Linen API had an internal error \(request req_\w+\); quote it to support\.$/,
  unreachable: /^Could not reach the Linen API; check the network and try again\.$/,
  'unexpected response':
    /^The Linen API sent an unexpected response for GET \/invoices \(request req_\w+\); try again or quote it to support\.$/,
};

let h: Harness;

beforeAll(async () => {
  h = await startHarness();
});
afterEach(async () => {
  await h.sb.resetFaults();
  await h.sb.clearRequests();
});
afterAll(async () => {
  await h?.close();
});

describe.each(API_FAULTS)('$name', (f) => {
  it('LINEN_INVOICES shows the sentence after bounded requests, and the next cell is served', async () => {
    coldCache(h);
    await h.sb.clearRequests();
    await h.sb.enqueue(f.fault);
    const r = h.cell('LINEN_INVOICES', '', '2026-09-01', '2026-10-31');
    if (f.sentence === null) {
      expect(r.error).toBeUndefined();
      const table = r.value as unknown[][];
      expect(table[0]).toContain('Status');
      // Open enums: a status the add-on has never seen shows as it came, in words.
      expect(table.slice(1).every((row) => row[1] === 'Future status')).toBe(true);
    } else {
      expect(r.error).toMatch(SENTENCES[f.sentence]);
      const sent = await h.sb.requestCount();
      // A retried fault is retried while the 30 s of a cell allow, never more than the retries.
      if (f.outcome === 'retried') expect(sent).toBeGreaterThanOrEqual(1);
      expect(sent).toBeLessThanOrEqual(expectedRequests(f, ADDON_RETRIES));
      if (f.outcome !== 'retried') expect(sent).toBe(expectedRequests(f, ADDON_RETRIES));
    }

    await h.sb.resetFaults();
    await h.sb.clearRequests();
    const next = h.cell('LINEN_ITEMS');
    expect(next.error).toBeUndefined();
    expect((next.value as unknown[][]).length).toBeGreaterThan(1);
    expect(await h.sb.requestCount()).toBe(1);
  }, 60_000);
});
