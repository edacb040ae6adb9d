/**
 * The Bot Connector of one service URL, with the bot's token: Microsoft's Teams SDK client (`@microsoft/teams.api`)
 * for posting, updating and replying with cards, and for opening a 1:1 chat with a person. An inbound activity's
 * service URL is the one its verified token names; a digest posts to the one stored with its subscription.
 *
 * The SDK does not retry. Posts and updates here keep within each conversation's limits (conversation-limits.ts),
 * and wait out a 429's `Retry-After` (another replica may have used the room) or retry a 412, 502 or 504, which
 * Microsoft says were not posted; an answer is never lost to a busy channel. Any other failure is the caller's to
 * read (connector-errors.ts): nothing that may have been posted is sent again.
 */
import { Client, MessageActivityInput } from '@microsoft/teams.api';
import type { Content } from '../chat/content/document.ts';
import { renderedOnce } from '../chat/content/rendered-once.ts';
import { sleep } from '../chat/digests/delivery/retry.ts';
import { plainSummary, toAdaptiveCard } from './cards/render.ts';
import { classifyTeamsError } from './connector-errors.ts';
import { ConversationLimits } from './conversation-limits.ts';
import { channelOf } from './conversations.ts';
import type { BotTokens } from './token.ts';

/** A Connector call Teams never answers ends after this (a hung post counts as an unsure one). */
const TIMEOUT_MS = 30_000;
/** Tries after the first, and the longest wait between two, before the failure is the caller's. */
const RETRIES = 4;
const LONGEST_WAIT_MS = 30_000;

/** Each content's card and summary, rendered once (a digest's, for every conversation it goes to). */
const cardOf = renderedOnce((content) => ({ summary: plainSummary(content), card: toAdaptiveCard(content) }));

/** An answer as a Teams message: its card, with its summary for notifications and screen readers. */
export function cardMessage(content: Content): MessageActivityInput {
  const { summary, card } = cardOf(content);
  return new MessageActivityInput(undefined, { summary }).addCard('adaptive', card);
}

export class Connector {
  readonly #client: Client;
  constructor(
    readonly serviceUrl: string,
    tokens: BotTokens,
    private readonly botId: string,
    private readonly limits: ConversationLimits = new ConversationLimits(),
    private readonly wait: (ms: number) => Promise<void> = sleep,
  ) {
    this.#client = new Client(serviceUrl.replace(/\/+$/, ''), { token: () => tokens.get(), timeout: TIMEOUT_MS });
  }

  /** Posts in a conversation (a channel's thread when its id carries `;messageid=`); the new activity's id. */
  async send(conversationId: string, message: MessageActivityInput): Promise<string> {
    const sent = await this.#paced(conversationId, () =>
      this.#client.conversations.activities(conversationId).create(message),
    );
    return sent.id;
  }

  async update(conversationId: string, activityId: string, message: MessageActivityInput): Promise<void> {
    await this.#paced(conversationId, () =>
      this.#client.conversations.activities(conversationId).update(activityId, message),
    );
  }

  /** `call` within the conversation's limits, tried again while Teams says it was not posted. */
  async #paced<T>(conversationId: string, call: () => Promise<T>): Promise<T> {
    for (let attempt = 0; ; attempt++) {
      const answered = await this.limits.take(channelOf(conversationId));
      try {
        const result = await call();
        answered();
        return result;
      } catch (err) {
        answered();
        const f = classifyTeamsError(err);
        const notPosted = f.kind === 'ratelimited' || (f.kind === 'transient' && !f.unsure);
        const waitMs = f.kind === 'ratelimited' ? f.retryAfterMs : 500 * 2 ** attempt;
        if (!notPosted || attempt >= RETRIES || waitMs > LONGEST_WAIT_MS) throw err;
        // Jitter, as Microsoft asks: replicas refused together do not come back together.
        await this.wait(waitMs + Math.floor(Math.random() * 250));
      }
    }
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
  // Conversation ids are Teams-wide: one count of each conversation's sends, whichever region serves it.
  const limits = new ConversationLimits();
  return (serviceUrl) => {
    let c = byUrl.get(serviceUrl);
    if (!c) {
      c = new Connector(serviceUrl, tokens, botId, limits);
      byUrl.set(serviceUrl, c);
    }
    return c;
  };
}
