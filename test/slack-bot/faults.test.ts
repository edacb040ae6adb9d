/**
 * `/linen invoices` through the bot's real receiver against each Linen API fault of the matrix
 * (test/support/api-faults.ts): the sentence the person reads, the requests really sent (the sandbox's own
 * log), and another person's command answered right after.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { API_FAULTS, type ApiFault, expectedRequests, RETRIES } from '../support/api-faults.ts';
import { allText, type BotUnderTest, type Harness, startHarness } from '../support/slack-harness.ts';

const SENTENCES: Record<NonNullable<ApiFault['sentence']>, RegExp> = {
  'not answering': /^The Linen API (could not be reached just now|is not answering)\b[^\n]*\.$/,
  busy: /^The Linen API is busy \(rate limited\); try again in 1 second\.$/,
  'internal error':
    /^The Linen API is having trouble right now; try again later, and quote request req_\w+ to support if it persists\.$/,
  unreachable: /^The Linen API could not be reached just now; try again in a minute\.$/,
  'unexpected response':
    /^The Linen API sent an unexpected response for GET \/\S+ \(request req_\w+\); try again or quote it to support\.$/,
};

let h: Harness;
let bot: BotUnderTest;

beforeAll(async () => {
  h = await startHarness();
  bot = await h.startBotWith({}, { maxRetries: RETRIES, requestTimeoutMs: 1_000 });
});
afterEach(() => {
  h.sandbox.faults.reset();
  h.sandbox.requests.clear();
});
afterAll(async () => {
  await h?.close();
});

describe.each(API_FAULTS)('$name', (f) => {
  it('/linen invoices answers with the sentence after bounded requests, and the next person is served', async () => {
    // Warm the bot's customer list, so the fault meets the invoices listing first.
    await bot.ask('invoices', { userId: 'U0WARM' });
    h.sandbox.requests.clear();
    h.sandbox.faults.enqueue(f.fault);
    const answer = await bot.ask('invoices', { userId: 'U0FIRST' });
    const text = allText(answer);
    if (f.sentence === null) {
      expect(text).toMatch(/Open invoices: \d+/);
      expect(text).not.toMatch(/unexpected response|trouble|could not/);
    } else {
      expect(answer.text).toMatch(SENTENCES[f.sentence]);
      const sent = h.sandbox.requests.count;
      expect(sent).toBeGreaterThanOrEqual(1);
      expect(sent).toBeLessThanOrEqual(expectedRequests(f));
      if (f.outcome !== 'retried') expect(sent).toBe(expectedRequests(f));
    }

    h.sandbox.faults.reset();
    const next = await bot.ask('balance', { userId: 'U0SECOND' });
    expect(allText(next)).toMatch(/\$[\d,]+\.\d\d/);
    expect(h.problems).toEqual([]);
  });
});
