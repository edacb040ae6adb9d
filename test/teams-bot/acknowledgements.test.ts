/**
 * Acknowledgements first on Teams, through the service's real HTTP server: a message activity gets its 200 before
 * any of its answer's work, and a burst's answers wait until every activity received with them is acknowledged (at
 * most MAX_WAIT_MS), so that answering one does not slow the acknowledgement of the next. Every answer still
 * arrives, with its data, after its acknowledgement; a shutdown waits for the answers of what it acknowledged.
 */
import { request } from 'node:http';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { MAX_WAIT_MS } from '../../base/pending-acks.ts';
import { type Activity, personalMessage, teamsUser } from '../support/teams-activities.ts';
import type { ConnectorActivity } from '../support/teams-connector-fake.ts';
import { cardText, startTeamsHarness, type TeamsBotUnderTest, type TeamsHarness } from '../support/teams-harness.ts';

const INTERIM = 'Looking that up…';
const BALANCE = /Open balance: Mercy General Hospital/;

let h: TeamsHarness;
/** When each Linen API request reached the sandbox (Date.now()). */
const linenRequests: number[] = [];

beforeAll(async () => {
  h = await startTeamsHarness();
  const record = h.sandbox.requests.record.bind(h.sandbox.requests);
  h.sandbox.requests.record = (entry) => {
    linenRequests.push(Date.now());
    record(entry);
  };
});
afterEach(() => h.sandbox.faults.reset());
afterAll(() => h?.close());

/** What the bot posted or updated in `conversation` since the Connector had `from` activities. */
const postsIn = (conversation: string, from: number): ConnectorActivity[] =>
  h.fakes.connector.activities.slice(from).filter((a) => a.conversationId === conversation);

/** The conversation's answer (its last post or update once that is not "Looking that up…"). */
function answerIn(conversation: string, from: number): Promise<ConnectorActivity> {
  return h.fakes.connector.waitUntil(
    () => {
      const last = postsIn(conversation, from).at(-1);
      return last && !cardText(last.activity).includes(INTERIM) ? last : undefined;
    },
    20_000,
    `the answer in ${conversation}`,
  );
}

/**
 * An activity whose request has reached the bot while its body is still arriving: the server has read its headers
 * (it said 100 Continue) and the first bytes. `finish` sends the rest; its HTTP status.
 */
async function heldActivity(bot: TeamsBotUnderTest, activity: Activity) {
  const body = Buffer.from(JSON.stringify(activity));
  const req = request(bot.endpoint, {
    method: 'POST',
    headers: {
      'content-type': 'application/json; charset=utf-8',
      'content-length': String(body.length),
      authorization: `Bearer ${h.fakes.connectorToken()}`,
      expect: '100-continue',
    },
  });
  const status = new Promise<number>((resolve, reject) => {
    req.on('response', (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', reject);
  });
  await new Promise<void>((resolve) => req.once('continue', resolve));
  req.write(body.subarray(0, 16));
  return {
    finish(): Promise<number> {
      req.end(body.subarray(16));
      return status;
    },
  };
}

describe('a burst of messages', () => {
  let bot: TeamsBotUnderTest;
  beforeAll(async () => {
    bot = await h.start();
  });

  it('is acknowledged before any of it is answered, then every message gets its answer with its data', async () => {
    const from = h.fakes.connector.activities.length;
    const first = personalMessage(h.fakes.bot, { user: teamsUser('Held Back'), text: 'help' });
    const held = await heldActivity(bot, first);
    const burst = Array.from({ length: 10 }, (_, i) =>
      personalMessage(h.fakes.bot, { user: teamsUser(`Burst ${i}`), text: 'balance Mercy General Hospital' }),
    );
    const sent = Date.now();
    const linenFrom = linenRequests.length;
    const acks = await Promise.all(burst.map((a) => bot.post(a)));
    expect(acks.map((a) => a.status)).toEqual(burst.map(() => 200));
    // Time for an answer's work to show if it did not wait (none does: an activity received before them is
    // unanswered).
    await h.fakes.connector
      .waitUntil(() => (linenRequests.length > linenFrom ? true : undefined), MAX_WAIT_MS / 5, 'a Linen request')
      .catch(() => undefined);
    const heldAnswered = Date.now();
    expect(await held.finish()).toBe(200);

    const answers = await Promise.all(burst.map((a) => answerIn(a.conversation.id, from)));
    // Their work (the Linen API first, then the posts) began once the held activity was answered, or, on a machine
    // too slow to acknowledge the burst within the cap, no sooner than MAX_WAIT_MS after it was sent.
    const notBefore = Math.min(heldAnswered, sent + MAX_WAIT_MS);
    expect(linenRequests.length).toBeGreaterThan(linenFrom);
    expect(Math.min(...linenRequests.slice(linenFrom))).toBeGreaterThanOrEqual(notBefore);
    for (const [i, a] of burst.entries()) {
      expect(postsIn(a.conversation.id, from)[0]!.at).toBeGreaterThanOrEqual(notBefore);
      expect(cardText(answers[i]!.activity)).toMatch(BALANCE);
    }
    const firstAnswer = await answerIn(first.conversation.id, from);
    expect(postsIn(first.conversation.id, from)[0]!.at).toBeGreaterThanOrEqual(heldAnswered);
    expect(cardText(firstAnswer.activity)).toMatch(/Linen in Microsoft Teams/);
  });
});

describe('stop() with answers still to come', () => {
  it('posts the answers of the messages it acknowledged before it ends', async () => {
    const bot = await h.start();
    // Every Linen request is answered 1.5 s late: the answers are all still to come when the stop begins.
    h.sandbox.faults.enqueue({ kind: 'latency', count: 50, ms: 1_500 });
    const from = h.fakes.connector.activities.length;
    const asked = ['balance', 'invoices overdue', 'signals'].map((text, i) =>
      personalMessage(h.fakes.bot, { user: teamsUser(`Stopping ${i}`), text }),
    );
    for (const a of asked) expect((await bot.post(a)).status).toBe(200);
    await bot.stop();
    const answers = asked.map((a) => postsIn(a.conversation.id, from).at(-1));
    for (const answer of answers) expect(cardText(answer?.activity)).not.toMatch(/Looking that up|not answering/);
    expect(cardText(answers[0]?.activity)).toMatch(/Open balance/);
    expect(cardText(answers[2]?.activity)).toMatch(/signals/i);
    expect(bot.logs.join('\n')).not.toContain('still being answered');
  });
});
