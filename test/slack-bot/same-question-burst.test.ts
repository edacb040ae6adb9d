/**
 * Many people asking at once, over the bot's real HTTP receiver against the sandbox over real HTTP, with the
 * bot's own Linen clients (real budgets, the key's pacing of 120 requests a minute): thirty identical commands
 * cost the requests of one answer and all get the data; thirty different questions are all answered with data
 * within the command's deadline. Requests are counted in the sandbox's own log.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allText, type BotUnderTest, type Harness, startHarness } from '../support/slack-harness.ts';

const COMMAND_DEADLINE_MS = 15_000;
/** What an answer says when it has no data: busy, not answering, unreachable, in trouble. */
const NO_DATA = /busy|not answering|could not be reached|having trouble|try again/i;

let h: Harness;
/** The bot as deployed: it builds its own clients for the key, which share their answers. */
let bot: BotUnderTest;

beforeAll(async () => {
  h = await startHarness();
  bot = await h.startBotWith({}, { ownClients: true, start: { digests: { worker: false } } });
}, 120_000);

afterAll(async () => {
  await h?.close();
});

/** Sends every command at once; each one's answer (the interim "Looking that up…" left out) and its time. */
async function burst(texts: string[]) {
  const sent = await Promise.all(
    texts.map(async (text) => ({ text, started: Date.now(), r: await bot.command(text) })),
  );
  return Promise.all(
    sent.map(async ({ text, started, r }) => {
      expect(r.status).toBe(200);
      const [answer] = await h.slack.waitForPosts(r.sink, 1, COMMAND_DEADLINE_MS + 5_000);
      return { text, ms: answer!.at - started, body: answer!.body as Record<string, unknown> };
    }),
  );
}

const nonGroups = () => h.sandbox.data.customers.filter((c) => !c.is_group);

describe('thirty people asking at once', () => {
  it('thirty identical /linen balance <customer> cost the requests of one answer, and all thirty get the balance', async () => {
    const customer = nonGroups()[0]!;
    const text = `balance ${customer.name}`;
    // One answer's requests, measured on a bot whose client shares nothing.
    const single = await h.startBotWith({}, { start: { digests: { worker: false } } });
    const one = await single.ask(text);
    expect(allText(one)).toContain(customer.name);
    const oneAnswer = [...single.paths];
    await single.stop();

    const before = h.sandbox.requests.count;
    const from = h.sandbox.requests.entries.length;
    const answers = await burst(Array.from({ length: 30 }, () => text));
    const spent = h.sandbox.requests.count - before;
    const paths = h.sandbox.requests.entries.slice(from).map((e) => e.path.replace(/^\/v1/, ''));

    for (const a of answers) {
      const t = allText(a.body);
      expect(t).toContain(customer.name);
      expect(t).not.toMatch(NO_DATA);
      expect(a.ms).toBeLessThan(COMMAND_DEADLINE_MS);
    }
    expect(spent).toBeGreaterThan(0);
    expect(spent).toBeLessThanOrEqual(oneAnswer.length);
    expect(new Set(paths)).toEqual(new Set(oneAnswer.map((p) => p.replace(/^\/v1/, ''))));
  }, 60_000);

  it('thirty different questions at once are all answered with their data within the deadline', async () => {
    const kinds = ['balance', 'invoices', 'po', 'signals', 'tickets', 'fillrate'];
    const texts = nonGroups()
      .slice(0, 5)
      .flatMap((c) => kinds.map((k) => `${k} ${c.name}`));
    expect(texts).toHaveLength(30);
    const answers = await burst(texts);
    for (const a of answers) {
      expect(allText(a.body), a.text).not.toMatch(NO_DATA);
      expect(a.ms, a.text).toBeLessThan(COMMAND_DEADLINE_MS);
    }
  }, 60_000);
});
