/**
 * Operating the service with Teams on: `/readyz` names Teams among its checks, and `/metrics` counts what Teams
 * users asked (commands, card buttons, the Linen requests they cost) under `platform="teams"`, with the store's
 * gauges by platform, and nothing secret or identifying in it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KEYS } from '../support/sandbox-http.ts';
import { cardAction, installationUpdate, personalChat, personalMessage } from '../support/teams-activities.ts';
import { cardText, startTeamsHarness, type TeamsBotUnderTest, type TeamsHarness } from '../support/teams-harness.ts';

const TOKEN = 'metrics-token-0123456789abcdef';
let h: TeamsHarness;
let bot: TeamsBotUnderTest;

beforeAll(async () => {
  h = await startTeamsHarness();
  bot = await h.start({ mode: 'connected', env: { METRICS_TOKEN: TOKEN } });
});
afterAll(() => h?.close());

/** The sum of the samples of `name` whose labels include every one of `labels`. */
function total(text: string, name: string, labels: Record<string, string> = {}): number {
  let sum = 0;
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`) && !line.startsWith(`${name} `)) continue;
    const series = line.slice(0, line.lastIndexOf(' '));
    if (Object.entries(labels).every(([k, v]) => series.includes(`${k}="${v}"`)))
      sum += Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return sum;
}

const origin = () => new URL(bot.endpoint).origin;
const scrape = async () => {
  const res = await fetch(`${origin()}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
  expect(res.status).toBe(200);
  return res.text();
};

describe('operating the service with Teams', () => {
  it('is ready once the store and Teams are', async () => {
    const res = await fetch(`${origin()}/readyz`);
    expect(res.status).toBe(200);
    expect(await res.text()).toMatch(/teams/i);
  });

  it('counts Teams commands, buttons and their Linen requests under platform="teams"; gauges by platform', async () => {
    const chat = personalChat();
    const user = h.user;
    const before = await scrape();
    await bot.post(installationUpdate(h.fakes.bot, { user, place: chat, action: 'add' }));
    const connected = await bot.post(
      cardAction(h.fakes.bot, {
        user,
        place: chat,
        replyToId: 'form',
        verb: 'linen_connect',
        data: { api_key: KEYS.all, base_url: h.sandbox.baseUrl, timezone: 'America/Chicago' },
      }),
    );
    expect(JSON.stringify(connected.body)).toContain('Linen is connected');
    for (const text of ['signals shortfall', 'ticket TKT-26-00417', 'nonsense'])
      await bot.answerTo(personalMessage(h.fakes.bot, { user, text, chat }));
    const choices = await bot.answerTo(personalMessage(h.fakes.bot, { user, text: 'tickets Mercy', chat }));
    expect(cardText(choices.activity)).toMatch(/matches \d customers/);
    await bot.post(
      cardAction(h.fakes.bot, {
        user,
        place: chat,
        replyToId: choices.id,
        verb: 'linen_rerun',
        data: { linen: 'linen_rerun', command: 'tickets Mercy General Hospital' },
      }),
    );
    await h.fakes.connector.waitUntil(
      () => h.fakes.connector.activities.find((a) => a.operation === 'update' && a.id === choices.id),
      10_000,
      'the chosen customer’s answer',
    );

    const after = await scrape();
    const moved = (name: string, labels: Record<string, string>) =>
      total(after, name, labels) - total(before, name, labels);
    expect(moved('linen_commands_total', { platform: 'teams', command: 'signals', outcome: 'answered' })).toBe(1);
    expect(moved('linen_commands_total', { platform: 'teams', command: 'ticket', outcome: 'answered' })).toBe(1);
    expect(moved('linen_commands_total', { platform: 'teams' })).toBeGreaterThanOrEqual(4);
    expect(moved('linen_commands_total', { platform: 'slack' })).toBe(0);
    expect(moved('linen_actions_total', { platform: 'teams', action: 'choose_customer' })).toBe(1);
    expect(moved('linen_api_requests_total', { platform: 'teams' })).toBeGreaterThan(0);
    expect(total(after, 'linen_installations', { platform: 'teams' })).toBe(1);
    expect(total(after, 'linen_connections', { platform: 'teams' })).toBe(1);
    // No key, tenant, user or conversation in any series.
    for (const secret of [
      KEYS.all,
      KEYS.all.slice(-12),
      h.fakes.bot.tenantId,
      user.id,
      user.aadObjectId,
      chat.conversationId,
    ])
      expect(after).not.toContain(secret);
  });

  it('counts the Excel relay’s Linen requests under platform="excel_relay", the key nowhere', async () => {
    const before = await scrape();
    for (let i = 0; i < 2; i++) {
      const res = await fetch(`${origin()}/excel/api/v1/customers?limit=5`, {
        headers: { authorization: `Bearer ${KEYS.all}` },
      });
      expect(res.status).toBe(200);
      await res.arrayBuffer();
    }
    const after = await scrape();
    const relayed = (text: string) =>
      total(text, 'linen_api_requests_total', { platform: 'excel_relay', endpoint: 'GET /customers', status: '200' });
    expect(relayed(after) - relayed(before)).toBe(2);
    expect(after).not.toContain(KEYS.all);
  });
});
