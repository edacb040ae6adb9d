/**
 * The Bot Connector of one service URL, with the bot's token: Microsoft's Teams SDK client (`@microsoft/teams.api`)
 * for posting, updating and replying with cards, and for opening a 1:1 chat with a person. An inbound activity's
 * service URL is the one its verified token names; a digest posts to the one stored with its subscription. The SDK
 * does not retry: a 429 or a 5xx comes back as an error the caller classifies (see digests/teams-delivery.ts).
 */
import { Client, MessageActivityInput } from '@microsoft/teams.api';
import type { Content } from '../chat/content/document.ts';
import { plainSummary, toAdaptiveCard } from './cards/render.ts';
import type { BotTokens } from './token.ts';

/** A Connector call Teams never answers ends after this (a hung post counts as an unsure one). */
const TIMEOUT_MS = 30_000;

/** An answer as a Teams message: its card, with its summary for notifications and screen readers. */
export function cardMessage(content: Content): MessageActivityInput {
  return new MessageActivityInput(undefined, { summary: plainSummary(content) }).addCard(
    'adaptive',
    toAdaptiveCard(content),
  );
}

export class Connector {
  readonly #client: Client;
  constructor(
    readonly serviceUrl: string,
    tokens: BotTokens,
    private readonly botId: string,
  ) {
    this.#client = new Client(serviceUrl.replace(/\/+$/, ''), { token: () => tokens.get(), timeout: TIMEOUT_MS });
  }

  /** Posts in a conversation (a channel's thread when its id carries `;messageid=`); the new activity's id. */
  async send(conversationId: string, message: MessageActivityInput): Promise<string> {
    const sent = await this.#client.conversations.activities(conversationId).create(message);
    return sent.id;
  }

  async update(conversationId: string, activityId: string, message: MessageActivityInput): Promise<void> {
    await this.#client.conversations.activities(conversationId).update(activityId, message);
  }

  /** The 1:1 chat of the bot with a person of a tenant (opened if it is not yet): its conversation id. */
  async personalChat(userId: string, tenantId: string): Promise<string> {
    const created = await this.#client.conversations.create({
      isGroup: false,
      bot: { id: this.botId },
      members: [{ id: userId, role: 'user' }],
      tenantId,
      channelData: { tenant: { id: tenantId } },
    });
    return created.id;
  }
}

/** One Connector a service URL, kept for the process (there are a handful: one per Teams region). */
export function connectors(tokens: BotTokens, botId: string): (serviceUrl: string) => Connector {
  const byUrl = new Map<string, Connector>();
  return (serviceUrl) => {
    let c = byUrl.get(serviceUrl);
    if (!c) {
      c = new Connector(serviceUrl, tokens, botId);
      byUrl.set(serviceUrl, c);
    }
    return c;
  };
}
