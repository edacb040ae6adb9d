/**
 * The bot's access to the Linen API for the workspace's key: two clients (undici, keep-alive) sharing the key's
 * pacing (with the bot's other clients of the key too, and across replicas with PostgreSQL), with different time
 * budgets: `client` for a person waiting on a command or a button (short), `backgroundClient` for digests (long). Plus a short-lived cache of the key's customers so that resolving a
 * name typed in a command does not cost a request every time. Both clients share their answers with every client
 * of the key in the process (`processAnswers`): the same question asked by many at once costs one request.
 */

import type { AsyncTransport } from '../shared/core/effects.ts';
import type { RequestObserver } from '../shared/core/observer.ts';
import { backgroundPacer, type RequestPacer } from '../shared/core/pacing.ts';
import { ConfigurationError, InvalidParamsError, NotFoundError } from '../shared/errors.ts';
import { normalizeName } from '../shared/names.ts';
import { createLinenClient, DEFAULT_PACING, type LinenClient, Pacer, processAnswers } from '../shared/node.ts';
import { closeMatches, resolveCustomerFrom } from '../shared/reports/lookup.ts';
import type { Customer } from '../shared/schemas/customers.ts';

/** No key is configured for this workspace: every command answers so, nothing is sent to the API. */
export class NoKeyError extends ConfigurationError {
  constructor() {
    super(
      'LINEN_API_KEY is not set',
      'No Linen API key is configured for this workspace yet; ask whoever runs the bot to set LINEN_API_KEY.',
    );
  }
}

export type CustomerChoice =
  | { kind: 'found'; customer: Customer }
  | { kind: 'choose'; input: string; matches: Customer[] }
  | { kind: 'none'; input: string };

/**
 * Budgets of a person waiting: a hung request is given up after 5 s, one call (with its one retry) after 10 s;
 * the command itself answers by its own deadline (answers/answer-in-time.ts) whatever the calls do.
 */
export const INTERACTIVE_BUDGET = { timeBudgetMs: 10_000, requestTimeoutMs: 5_000, maxRetries: 1 } as const;
/** Budgets of background work (digests): nobody waits on it, so slow pages and retries are worth the wait. */
export const BACKGROUND_BUDGET = { timeBudgetMs: 60_000, requestTimeoutMs: 20_000, maxRetries: 2 } as const;

export interface LinenServiceOptions {
  apiKey?: string | undefined;
  baseUrl: string;
  timeZone: string;
  /** The key's pacer, shared with the bot's other clients of the key (default: one for this service). */
  pacing?: RequestPacer | undefined;
  /** A ready client (tests, benchmarks) used for both kinds of work; otherwise two are created from the options. */
  client?: LinenClient | undefined;
  /** Told of each request, pacing wait and shared answer (the bot's metrics). */
  observer?: RequestObserver | undefined;
  /** How long the customer list is reused (default 60 s). */
  customerTtlMs?: number | undefined;
  /**
   * The process's connections to the API, shared by every key's clients (a transport with no `close`: this service
   * leaves it open for the others). Default: the service's clients open their own.
   */
  transport?: AsyncTransport | undefined;
  now?: (() => number) | undefined;
}

export class LinenService {
  readonly timeZone: string;
  readonly #client: LinenClient | undefined;
  readonly #background: LinenClient | undefined;
  readonly #ttl: number;
  readonly #now: () => number;
  #customers: { at: number; list: Promise<Customer[]> } | undefined;

  constructor(options: LinenServiceOptions) {
    this.timeZone = options.timeZone;
    this.#ttl = options.customerTtlMs ?? 60_000;
    this.#now = options.now ?? Date.now;
    if (options.client) {
      this.#client = options.client;
      this.#background = options.client;
    } else if (options.apiKey) {
      // One pacing window for the key, whichever client sends.
      const pacing = options.pacing ?? new Pacer({ ...DEFAULT_PACING });
      const common = {
        apiKey: options.apiKey,
        baseUrl: options.baseUrl,
        timeZone: options.timeZone,
        // One key's clients answer on every chat platform the service serves.
        userAgent: 'linen-connect-chat/0.1',
        sharedAnswers: processAnswers,
        observer: options.observer,
        ...(options.transport ? { transport: options.transport } : {}),
      };
      this.#client = createLinenClient({ ...common, pacing, ...INTERACTIVE_BUDGET });
      // Background work leaves part of every window to the people waiting on the same key (its commands go first).
      this.#background = createLinenClient({ ...common, pacing: backgroundPacer(pacing), ...BACKGROUND_BUDGET });
    }
  }

  get hasKey(): boolean {
    return this.#client !== undefined;
  }

  /** The client for a person waiting (short budgets), or a NoKeyError when the workspace has no key. */
  get client(): LinenClient {
    if (!this.#client) throw new NoKeyError();
    return this.#client;
  }

  /** The client for background work such as digests (long budgets), or a NoKeyError. */
  get backgroundClient(): LinenClient {
    if (!this.#background) throw new NoKeyError();
    return this.#background;
  }

  /** The key's customers (cached for a minute; a failed listing is not cached). */
  customers(): Promise<Customer[]> {
    const now = this.#now();
    if (this.#customers && now - this.#customers.at < this.#ttl) return this.#customers.list;
    const list = this.client.customers.list().all();
    const entry = { at: now, list };
    this.#customers = entry;
    list.catch(() => {
      if (this.#customers === entry) this.#customers = undefined;
    });
    return list;
  }

  /**
   * A customer typed as an id or a name. An exact id or name wins; otherwise a single name containing what
   * was typed is taken, and several candidates are offered to choose from.
   */
  async resolveCustomer(input: string): Promise<CustomerChoice> {
    const customers = await this.customers();
    try {
      return { kind: 'found', customer: resolveCustomerFrom(input, customers) };
    } catch (err) {
      if (!(err instanceof NotFoundError) && !(err instanceof InvalidParamsError)) throw err;
    }
    const matches = closeMatches(input, customers, 8);
    const q = normalizeName(input);
    const containing = matches.filter((c) => normalizeName(c.name).includes(q));
    if (containing.length === 1 && matches.length === 1) return { kind: 'found', customer: containing[0]! };
    if (matches.length === 0) return { kind: 'none', input: input.trim() };
    return { kind: 'choose', input: input.trim(), matches };
  }

  async close(): Promise<void> {
    await this.#client?.close();
    if (this.#background !== this.#client) await this.#background?.close();
  }
}
