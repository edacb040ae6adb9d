/**
 * Malformed but correctly signed payloads, posted to the real receiver: each is answered or ignored, never an
 * HTTP 500, never an unacknowledged request, and the log has no error line, no "unhandled" and no stack. One the
 * bot ignores has exactly one info line saying so, in single- and multi-workspace mode alike.
 */
import { randomBytes } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { useHttpBot } from '../support/http-bot-suite.ts';
import { allText, type BotUnderTest, SIGNING_SECRET } from '../support/slack-harness.ts';
import { blockActionsBody, commandBody, postSigned } from '../support/slack-sign.ts';

const suite = useHttpBot();

const form = (payload: unknown) => new URLSearchParams({ payload: JSON.stringify(payload) }).toString();

/** A block_actions payload as Slack sends it, changed by `edit`. */
function click(responseUrl: string | undefined, action: Record<string, unknown>, edit?: (p: any) => void): string {
  const p = JSON.parse(
    new URLSearchParams(blockActionsBody({ actionId: 'x', value: 'x', responseUrl: responseUrl ?? '' })).get(
      'payload',
    )!,
  );
  p.actions = [{ block_id: 'b1', type: 'button', action_ts: '1700000001.000200', ...action }];
  if (responseUrl === undefined) delete p.response_url;
  edit?.(p);
  return form(p);
}

function commandWithout(field: string, responseUrl: string, text = 'help'): string {
  const params = new URLSearchParams(commandBody({ text, responseUrl }));
  params.delete(field);
  return params.toString();
}

function view(type: 'view_submission' | 'view_closed', callbackId: string): string {
  return form({
    type,
    team: { id: 'T0LINEN', domain: 'linen-test' },
    user: { id: 'U0COORD', username: 'coordinator', name: 'coordinator', team_id: 'T0LINEN' },
    api_app_id: 'A0LINEN',
    token: 'deprecated-verification-token',
    trigger_id: '1.2.5',
    view: {
      id: 'V0NOTOURS',
      team_id: 'T0LINEN',
      type: 'modal',
      callback_id: callbackId,
      private_metadata: '',
      state: { values: {} },
      hash: '1700000000.abc',
      blocks: [],
    },
    is_enterprise_install: false,
  });
}

/** The workspace and user of a payload Slack sends from a workspace. */
const WHO = {
  team: { id: 'T0LINEN', domain: 'linen-test' },
  user: { id: 'U0COORD', username: 'coordinator', name: 'coordinator', team_id: 'T0LINEN' },
  api_app_id: 'A0LINEN',
};

/** Payloads the bot cannot route: Slack never sends them, anyone with the signing secret can. */
const UNROUTABLE = {
  /** No team, user or channel: nothing to route the click by (Bolt reads `user` before any listener). */
  noWhoOrWhere: form({ type: 'block_actions', actions: [{ action_id: 'linen_share', value: 'z'.repeat(3000) }] }),
  /** No `actions` at all: Bolt does not recognize it as a click. */
  noActions: form({ type: 'block_actions', ...WHO, response_url: 'https://hooks.slack.invalid/x' }),
};

/** How the bot must deal with a case: answer through response_url (with text matching), or log that it ignored it. */
type Expect = { answer: RegExp } | { ignored: RegExp };

interface Case {
  name: string;
  body: (responseUrl: string) => string;
  expect: Expect;
}

const CASES: Case[] = [
  { name: 'a command without text', body: (u) => commandWithout('text', u), expect: { answer: /balance/ } },
  { name: 'a command without user_id', body: (u) => commandWithout('user_id', u), expect: { answer: /balance/ } },
  {
    name: 'a command without channel_id',
    body: (u) => commandWithout('channel_id', u),
    expect: { answer: /balance/ },
  },
  {
    name: 'a digest command without user_id or channel_id',
    body: (u) => {
      const p = new URLSearchParams(commandWithout('user_id', u, 'digest list'));
      p.delete('channel_id');
      return p.toString();
    },
    expect: { answer: /./ },
  },
  {
    name: 'a command without response_url',
    body: (u) => commandWithout('response_url', u),
    expect: { ignored: /without a response_url/ },
  },
  {
    name: 'a Share click without response_url',
    body: () => click(undefined, { action_id: 'linen_share', value: 'balance' }),
    expect: { ignored: /without a response_url/ },
  },
  {
    name: 'a PDF click without response_url',
    body: () => click(undefined, { action_id: 'linen_pdf:0', value: '{}' }),
    expect: { ignored: /without a response_url/ },
  },
  {
    name: 'an unknown action_id',
    body: (u) => click(u, { action_id: 'launch_rockets', value: 'now' }),
    expect: { ignored: /action launch_rockets is not one of the bot's/ },
  },
  {
    name: 'a Share button whose value is not a command the bot wrote',
    body: (u) => click(u, { action_id: 'linen_share', value: '<!channel> __proto__ \u202e 1e309' }),
    expect: { answer: /./ },
  },
  {
    name: 'a Share button whose value is a number',
    body: (u) => click(u, { action_id: 'linen_share', value: 42 }),
    expect: { answer: /balance/ },
  },
  {
    name: 'a Share button with no value',
    body: (u) => click(u, { action_id: 'linen_share' }),
    expect: { answer: /balance/ },
  },
  {
    name: 'a PDF button whose value is not JSON',
    body: (u) => click(u, { action_id: 'linen_pdf:3', value: 'not json' }),
    expect: { answer: /out of date/ },
  },
  {
    name: 'a PDF button whose reference has an impossible date and a foreign id',
    body: (u) =>
      click(u, {
        action_id: 'linen_pdf:3',
        value: JSON.stringify({ i: 'x', c: '__proto__', d: '2026-02-30', n: 'Z' }),
      }),
    expect: { answer: /./ },
  },
  {
    name: 'a customer choice whose value is an object',
    body: (u) => click(u, { action_id: 'linen_rerun:0', value: { __proto__: null, a: 1 } }),
    expect: { answer: /balance/ },
  },
  {
    name: 'a click with no actions',
    body: (u) => click(u, {}, (p) => (p.actions = [])),
    expect: { ignored: /a click with no action/ },
  },
  {
    name: 'a Share click without team, user or channel',
    body: () => UNROUTABLE.noWhoOrWhere,
    expect: { ignored: /a click with no user/ },
  },
  {
    name: 'a click without actions',
    body: () => UNROUTABLE.noActions,
    expect: { ignored: /a click with no action/ },
  },
  {
    name: 'a view submission without a view',
    body: () => form({ type: 'view_submission', ...WHO }),
    expect: { ignored: /a view submission with no view/ },
  },
  {
    name: 'a shortcut without a callback_id',
    body: () => form({ type: 'shortcut', trigger_id: '1.2.6', ...WHO }),
    expect: { ignored: /a shortcut with no callback_id/ },
  },
  {
    name: 'a message action without a callback_id',
    body: () => form({ type: 'message_action', channel: { id: 'C0LINEN' }, message: { ts: '1.2' }, ...WHO }),
    expect: { ignored: /a message action with no callback_id/ },
  },
  {
    name: 'a view submission for a view the bot did not open',
    body: () => view('view_submission', 'not_ours'),
    expect: { ignored: /view not_ours is not one the bot opened/ },
  },
  {
    name: 'a closed view the bot did not open',
    body: () => view('view_closed', 'not_ours_either'),
    expect: { ignored: /view not_ours_either is not one the bot opened/ },
  },
];

const BAD_LINE = /\b(ERROR|unhandled)\b|\n\s+at |^\s+at /i;

describe('malformed but signed payloads', () => {
  for (const c of CASES) {
    it(`${c.name}: ${'answer' in c.expect ? 'answered' : 'ignored'}, 200, no error in the log`, async () => {
      const sink = suite.h.slack.responseUrl();
      const from = suite.bot.logs.length;
      const r = await postSigned(suite.bot.url, SIGNING_SECRET, c.body(sink.url));
      expect(r.status).toBe(200);
      if ('answer' in c.expect) {
        const [answer] = await suite.h.slack.waitForPosts(sink.id, 1);
        expect(allText(answer!.body)).toMatch(c.expect.answer);
      } else {
        const pattern = c.expect.ignored;
        await suite.bot.waitForLog(pattern);
        expect(suite.h.slack.postsTo(sink.id)).toEqual([]);
      }
      const lines = suite.bot.logs.slice(from);
      expect(lines.filter((l) => BAD_LINE.test(l))).toEqual([]);
      if ('ignored' in c.expect) expect(infoLines(lines, c.expect.ignored)).toHaveLength(1);
    });
  }
});

/** The lines about the payload at info or above: exactly one, the one saying it was ignored. */
const infoLines = (lines: string[], about: RegExp) => lines.filter((l) => / INFO /.test(l) && about.test(l));

describe('unroutable payloads in multi-workspace mode (OAuth installation store)', () => {
  let bot: BotUnderTest;
  beforeAll(async () => {
    bot = await suite.h.startBotWith(
      {
        SLACK_BOT_TOKEN: undefined,
        LINEN_API_KEY: undefined,
        SLACK_CLIENT_ID: suite.h.slack.oauth.clientId,
        SLACK_CLIENT_SECRET: suite.h.slack.oauth.clientSecret,
        SLACK_STATE_SECRET: 'state-secret-0123456789abcdef',
        SLACK_OAUTH_AUTHORIZE_URL: suite.h.slack.authorizeUrl,
        LINEN_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
      },
      { start: { digests: { worker: false } } },
    );
  }, 120_000);

  const cases: [string, () => string, RegExp][] = [
    ['a Share click without team, user or channel', () => UNROUTABLE.noWhoOrWhere, /a click with no user/],
    [
      'a click from a user of no workspace',
      () => form({ type: 'block_actions', user: { id: 'U0COORD' }, actions: [{ action_id: 'linen_share' }] }),
      /a click with no team/,
    ],
    ['a click without actions', () => UNROUTABLE.noActions, /a click with no action/],
  ];
  for (const [name, body, ignored] of cases) {
    it(`${name}: ignored, 200, one info line, no error in the log`, async () => {
      const from = bot.logs.length;
      const r = await postSigned(bot.url, SIGNING_SECRET, body());
      expect(r.status).toBe(200);
      await bot.waitForLog(ignored);
      const lines = bot.logs.slice(from);
      expect(lines.filter((l) => BAD_LINE.test(l))).toEqual([]);
      expect(infoLines(lines, ignored)).toHaveLength(1);
    });
  }
});
