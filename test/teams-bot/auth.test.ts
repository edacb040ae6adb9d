/**
 * Inbound requests carry a verified Bot Framework token, or get 401 and are not acted on: no token, a wrong audience,
 * an expired one, one signed by a key that is not in the OpenID keys, a `serviceurl` other than the activity's, and
 * the rest of the ways a token can be wrong. Nothing is answered, nothing is recorded, and no token reaches a log.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { personalMessage } from '../support/teams-activities.ts';
import { startTeamsHarness, type TeamsBotUnderTest, type TeamsHarness } from '../support/teams-harness.ts';
import { REFUSED_TOKENS, type RefusedTokenKind } from '../support/teams-openid-fake.ts';

let h: TeamsHarness;
let bot: TeamsBotUnderTest;

beforeAll(async () => {
  h = await startTeamsHarness();
  bot = await h.start();
});
afterAll(() => h?.close());

const tokenOf = (kind: RefusedTokenKind) =>
  h.fakes.openid.refusedToken(kind, { appId: h.fakes.bot.appId, serviceUrl: h.fakes.bot.serviceUrl });

describe('requests without a valid Bot Framework token', () => {
  it('refuses a request with no token with 401 and answers nothing', async () => {
    const before = h.fakes.connector.activities.length;
    const res = await bot.post(personalMessage(h.fakes.bot, { user: h.user, text: 'balance' }), null);
    expect(res.status).toBe(401);
    expect(h.fakes.connector.activities.length).toBe(before);
  });

  for (const [kind, what] of Object.entries(REFUSED_TOKENS) as [RefusedTokenKind, string][]) {
    it(`refuses a token with ${what} with 401, and acts on nothing`, async () => {
      const before = { posts: h.fakes.connector.activities.length, sandbox: h.sandbox.requests.count };
      const token = tokenOf(kind);
      const res = await bot.post(personalMessage(h.fakes.bot, { user: h.user, text: 'balance' }), token);
      expect(res.status).toBe(401);
      expect(h.fakes.connector.activities.length).toBe(before.posts);
      expect(h.sandbox.requests.count).toBe(before.sandbox);
      // The refused token is never written to a log line.
      expect(bot.logs.join('\n')).not.toContain(token.slice(-24));
    });
  }

  it('answers the same activity with a good token', async () => {
    const { answer } = await bot.ask('balance Mercy General Hospital');
    expect(answer.activity?.summary).toMatch(/Open balance for Mercy General Hospital/);
  });
});
