/**
 * A slow or hung Linen API, over real HTTP: the bot builds its own clients with its interactive budgets, the
 * sandbox hangs or delays requests, and signed commands go to the real Bolt receiver. The person sees
 * "Looking that up…" after about 2 s and the answer (or one sentence that the API is not answering) replaces
 * it well within 20 s.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { INTERACTIVE_DEADLINES, INTERIM_TEXT } from '../../chat/answers/answer-in-time.ts';
import { INTERACTIVE_BUDGET } from '../../chat/linen.ts';
import { TimeoutError } from '../../shared/errors.ts';
import { createLinenClient } from '../../shared/node.ts';
import { allText, type BotUnderTest, type Harness, startHarness, TZ } from '../support/slack-harness.ts';

let h: Harness;
let bot: BotUnderTest;

beforeAll(async () => {
  h = await startHarness();
  bot = await h.startBotWith({}, { ownClients: true, start: { digests: { worker: false } } });
}, 120_000);

afterEach(() => h.sandbox.faults.reset());

afterAll(async () => {
  await h?.close();
});

const NOT_ANSWERING = 'The Linen API is not answering right now';

/** Sends `/linen <text>`; returns the posts to its response_url once the answer (not the interim) arrived. */
async function commandTimed(text: string) {
  const started = Date.now();
  const r = await bot.command(text);
  expect(r.status).toBe(200);
  await h.slack.waitForPosts(r.sink, 1, 30_000);
  return { posts: h.slack.postsTo(r.sink), started };
}

describe('a slow or hung Linen API', () => {
  it('gives up a hung request at the interactive request timeout: the transport really aborts', async () => {
    h.sandbox.faults.enqueue({ kind: 'hang', count: 10 });
    const client = createLinenClient({
      apiKey: 'lk_live_demo_all_access',
      baseUrl: h.sandbox.baseUrl,
      timeZone: TZ,
      ...INTERACTIVE_BUDGET,
      pacing: false,
    });
    const started = Date.now();
    const err = await client.customers
      .list()
      .page()
      .catch((e: unknown) => e);
    const took = Date.now() - started;
    await client.close();
    expect(err).toBeInstanceOf(TimeoutError);
    // Two attempts (one retry), each ended by its own timeout, inside the call's budget.
    expect(took).toBeGreaterThanOrEqual(INTERACTIVE_BUDGET.requestTimeoutMs);
    expect(took).toBeLessThan(INTERACTIVE_BUDGET.timeBudgetMs + 2_000);
  });

  it('a hung API: "Looking that up…" at about 2 s, then the sentence replaces it within 20 s', async () => {
    h.sandbox.faults.enqueue({ kind: 'hang', count: 100 });
    const { posts, started } = await commandTimed('balance');
    expect(posts).toHaveLength(2);
    const [interim, answer] = posts;
    expect(interim!.body.text).toBe(INTERIM_TEXT);
    expect(interim!.body.response_type).toBe('ephemeral');
    expect(interim!.at - started).toBeGreaterThanOrEqual(INTERACTIVE_DEADLINES.interimMs - 100);
    expect(answer!.body.replace_original).toBe(true);
    expect(answer!.body.response_type).toBe('ephemeral');
    expect(allText(answer!.body)).toContain(NOT_ANSWERING);
    expect(answer!.at - started).toBeLessThan(20_000);
  });

  it('a slow first request: "Looking that up…", then the real answer replaces it', async () => {
    h.sandbox.faults.enqueue({ kind: 'latency', ms: 3_000 });
    const { posts } = await commandTimed('balance');
    expect(posts.map((p) => p.body.text === INTERIM_TEXT)).toEqual([true, false]);
    expect(posts[1]!.body.replace_original).toBe(true);
    expect(allText(posts[1]!.body)).toContain('Open balance');
  });

  it('a quick answer comes alone, with nothing to replace', async () => {
    const { posts } = await commandTimed('balance');
    expect(posts).toHaveLength(1);
    expect(posts[0]!.body.replace_original).toBe(false);
    expect(bot.logs.join('\n')).not.toMatch(/unhandled/i);
  });
});
