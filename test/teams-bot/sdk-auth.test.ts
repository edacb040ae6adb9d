/**
 * The Teams SDK's own authentication, on the node:http adapter, against the local Bot Framework fakes: a bare `App`
 * (test/support/teams-bare-app.ts lists the options it takes) accepts an activity signed as the Bot Connector signs
 * it and sends its reply with a token from the token endpoint; it refuses every bad token with 401 before any handler
 * runs; and what it does not do by itself (retry a 429, acknowledge before the handler returns) is pinned down here.
 */
import { type IMessageActivity, MessageActivityInput } from '@microsoft/teams.api';
import type { IActivityContext } from '@microsoft/teams.apps';
import { AdaptiveCard, TextBlock } from '@microsoft/teams.cards';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type Activity, personalChat, personalMessage, postActivity, teamsUser } from '../support/teams-activities.ts';
import { type BareTeamsApp, startBareTeamsApp } from '../support/teams-bare-app.ts';
import { startTeamsFakes, type TeamsFakes } from '../support/teams-fakes.ts';
import { REFUSED_TOKENS, type RefusedTokenKind } from '../support/teams-openid-fake.ts';
import { BOT_FRAMEWORK_SCOPE } from '../support/teams-token-fake.ts';

type MessageHandler = (ctx: IActivityContext<IMessageActivity>) => Promise<void>;

/** Answers every message with a card, as an answer would. */
const replyWithCard: MessageHandler = async ({ send }) => {
  await send(
    new MessageActivityInput('Open balance: $12,480.00').addCard(
      'adaptive',
      new AdaptiveCard(new TextBlock('Mercy General Hospital', { weight: 'Bolder' }), new TextBlock('$12,480.00')),
    ),
  );
};

let fakes: TeamsFakes;
const logLines: string[] = [];

/** A bare app running `onMessage` for every message, keeping the activities it ran for. */
async function startApp(
  options: { onMessage?: MessageHandler; dangerouslyAllowUnauthenticatedRequests?: boolean | undefined } = {},
): Promise<BareTeamsApp & { handled: Activity[] }> {
  const handled: Activity[] = [];
  const onMessage = options.onMessage ?? replyWithCard;
  const app = await startBareTeamsApp(fakes, {
    logLines,
    ...('dangerouslyAllowUnauthenticatedRequests' in options
      ? { dangerouslyAllowUnauthenticatedRequests: options.dangerouslyAllowUnauthenticatedRequests }
      : {}),
    register: (a) =>
      a.on('message', async (ctx) => {
        handled.push(ctx.activity);
        await onMessage(ctx);
      }),
  });
  return { ...app, handled };
}

let bench: Awaited<ReturnType<typeof startApp>>;
const user = teamsUser('Dana Whitfield');

beforeAll(async () => {
  fakes = await startTeamsFakes();
  bench = await startApp();
});

afterAll(async () => {
  await bench?.close();
  await fakes?.close();
});

describe('the Teams SDK against the Bot Framework fakes', () => {
  it('accepts a good token, runs the handler, and its reply reaches the Bot Connector with a bearer from the token endpoint', async () => {
    const chat = personalChat();
    const activity = personalMessage(fakes.bot, { user, text: 'balance', chat });
    const res = await postActivity(bench.endpoint, activity, fakes.connectorToken());

    expect(res.status).toBe(200);
    expect(bench.handled.map((a) => a.id)).toContain(activity.id);
    const conversationId = activity.conversation.id;
    const [posted] = fakes.connector.postsTo(conversationId);
    expect(posted?.appId).toBe(fakes.tokens.clientId);
    expect(posted?.activity).toMatchObject({
      type: 'message',
      text: 'Open balance: $12,480.00',
      from: { id: `28:${fakes.tokens.clientId}` },
      conversation: { id: conversationId },
      attachments: [{ contentType: 'application/vnd.microsoft.card.adaptive', content: { type: 'AdaptiveCard' } }],
    });
    expect(fakes.tokens.requests.at(-1)).toMatchObject({
      tenant: fakes.tokens.tenantId,
      grantType: 'client_credentials',
      clientId: fakes.tokens.clientId,
      scope: BOT_FRAMEWORK_SCOPE,
      secretMatched: true,
      status: 200,
    });
  });

  it('asks the token option for the Bot Framework scope in the registration’s home tenant', async () => {
    const before = bench.tokenAsks.length;
    await postActivity(bench.endpoint, personalMessage(fakes.bot, { user, text: 'signals' }), fakes.connectorToken());
    expect(bench.tokenAsks.slice(before)).toEqual([{ scope: BOT_FRAMEWORK_SCOPE, tenantId: fakes.tokens.tenantId }]);
  });

  it('asks the token option again for every send: it keeps no token itself', async () => {
    const before = fakes.tokens.requests.length;
    const twice: MessageHandler = async ({ send }) => {
      await send('one');
      await send('two');
    };
    const app = await startApp({ onMessage: twice });
    try {
      await postActivity(app.endpoint, personalMessage(fakes.bot, { user, text: 'po' }), fakes.connectorToken());
      expect(fakes.tokens.requests.length - before).toBe(2);
    } finally {
      await app.close();
    }
  });

  it('fetches the signing keys from beside the metadata URL, never the metadata document', async () => {
    await postActivity(bench.endpoint, personalMessage(fakes.bot, { user, text: 'help' }), fakes.connectorToken());
    expect(fakes.openid.requests).toContain('/v1/.well-known/keys');
    expect(fakes.openid.requests).not.toContain('/v1/.well-known/openidconfiguration');
  });

  it('accepts a token that ran out less than 5 minutes ago (clock skew)', async () => {
    const token = fakes.openid.connectorToken({
      appId: fakes.tokens.clientId,
      serviceUrl: fakes.connector.serviceUrl,
      expiresInSeconds: -240,
    });
    const res = await postActivity(bench.endpoint, personalMessage(fakes.bot, { user, text: 'help' }), token);
    expect(res.status).toBe(200);
  });

  it('refuses with 401, without running any handler, a request with no Authorization header', async () => {
    const activity = personalMessage(fakes.bot, { user, text: 'balance' });
    const res = await postActivity(bench.endpoint, activity, undefined);
    expect(res.status).toBe(401);
    expect(bench.handled.map((a) => a.id)).not.toContain(activity.id);
  });

  /** The SDK's own words for each refusal: each token is refused for the one thing wrong with it. */
  const REASONS: Record<RefusedTokenKind, RegExp> = {
    'wrong-audience': /jwt audience invalid/,
    expired: /jwt expired/,
    'not-yet-valid': /jwt not active/,
    'foreign-key': /Unable to find a signing key/,
    'forged-kid': /invalid signature/,
    'serviceurl-mismatch': /Service URL mismatch/,
    'no-serviceurl': /missing serviceurl claim/,
    'wrong-issuer': /does not match allowed issuer/,
    'no-issuer': /missing issuer claim/,
    hs256: /invalid algorithm/,
    'alg-none': /jwt signature is required/,
    'not-a-jwt': /jwt malformed/,
  };

  it.each(Object.entries(REFUSED_TOKENS) as [RefusedTokenKind, string][])(
    'refuses with 401, without running any handler, a token %s: %s',
    async (kind) => {
      const sentBefore = fakes.connector.activities.length;
      const loggedBefore = logLines.length;
      const activity = personalMessage(fakes.bot, { user, text: 'balance' });
      const token = fakes.openid.refusedToken(kind, {
        appId: fakes.tokens.clientId,
        serviceUrl: fakes.connector.serviceUrl,
      });
      const res = await postActivity(bench.endpoint, activity, token);
      expect(res.status).toBe(401);
      expect(bench.handled.map((a) => a.id)).not.toContain(activity.id);
      expect(fakes.connector.activities.length).toBe(sentBefore);
      expect(logLines.slice(loggedBefore).join('\n')).toMatch(REASONS[kind]);
    },
  );

  it('acknowledges an activity only once its handler has returned', async () => {
    const order: string[] = [];
    const probe = await startApp({
      onMessage: async ({ send }) => {
        order.push('handler started');
        await send('working on it');
        order.push('handler returned');
      },
    });
    probe.server.prependListener('request', (_req, res) => res.on('finish', () => order.push('acknowledged')));
    try {
      const res = await postActivity(
        probe.endpoint,
        personalMessage(fakes.bot, { user, text: 'short' }),
        fakes.connectorToken(),
      );
      expect(res.status).toBe(200);
      expect(order).toEqual(['handler started', 'handler returned', 'acknowledged']);
    } finally {
      await probe.close();
    }
  });

  it('does not retry a send the Bot Connector throttled with 429: the handler fails and the request gets 500', async () => {
    const activity = personalMessage(fakes.bot, { user, text: 'balance', chat: personalChat() });
    const conversationId = activity.conversation.id;
    fakes.connector.throttle(conversationId, 1, 2);
    const res = await postActivity(bench.endpoint, activity, fakes.connectorToken());
    expect(res.status).toBe(500);
    expect(fakes.connector.requests.filter((r) => r.conversationId === conversationId).map((r) => r.status)).toEqual([
      429,
    ]);
    expect(fakes.connector.postsTo(conversationId)).toEqual([]);
  });

  describe('with DANGEROUSLY_ALLOW_UNAUTHENTICATED_REQUESTS set in the environment', () => {
    const saved = process.env.DANGEROUSLY_ALLOW_UNAUTHENTICATED_REQUESTS;
    let open: BareTeamsApp | undefined;
    afterEach(async () => {
      await open?.close();
      open = undefined;
      if (saved === undefined) delete process.env.DANGEROUSLY_ALLOW_UNAUTHENTICATED_REQUESTS;
      else process.env.DANGEROUSLY_ALLOW_UNAUTHENTICATED_REQUESTS = saved;
    });

    it('still refuses an unsigned request when the option is false', async () => {
      process.env.DANGEROUSLY_ALLOW_UNAUTHENTICATED_REQUESTS = 'true';
      const app = await startApp();
      open = app;
      const res = await postActivity(app.endpoint, personalMessage(fakes.bot, { user, text: 'balance' }), undefined);
      expect(res.status).toBe(401);
      expect(app.handled).toEqual([]);
    });

    it('runs the handler for an unsigned request when the option is left out (why the bot sets it)', async () => {
      process.env.DANGEROUSLY_ALLOW_UNAUTHENTICATED_REQUESTS = 'true';
      const app = await startApp({ dangerouslyAllowUnauthenticatedRequests: undefined });
      open = app;
      const activity = personalMessage(fakes.bot, { user, text: 'balance' });
      const res = await postActivity(app.endpoint, activity, undefined);
      expect(res.status).toBe(200);
      expect(app.handled.map((a) => a.id)).toEqual([activity.id]);
    });
  });

  it('writes no token and not the client secret to its log, when it accepts, refuses or fails', async () => {
    const throttled = personalMessage(fakes.bot, { user, text: 'invoices', chat: personalChat() });
    fakes.connector.throttle(throttled.conversation.id, 1);
    const refused = fakes.openid.refusedToken('forged-kid', {
      appId: fakes.tokens.clientId,
      serviceUrl: fakes.connector.serviceUrl,
    });
    await postActivity(bench.endpoint, personalMessage(fakes.bot, { user, text: 'po' }), fakes.connectorToken());
    await postActivity(bench.endpoint, personalMessage(fakes.bot, { user, text: 'po' }), refused);
    expect((await postActivity(bench.endpoint, throttled, fakes.connectorToken())).status).toBe(500);
    expect(logLines.some((l) => l.startsWith('error'))).toBe(true);
    const secrets = [fakes.tokens.clientSecret, ...fakes.tokens.issued];
    for (const line of logLines) for (const secret of secrets) expect(line).not.toContain(secret);
    expect(logLines.join('\n')).not.toMatch(/eyJ[\w-]{10,}\.eyJ[\w-]{10,}\./);
  });
});
