/**
 * One key's session in the runtime: its API (through the relay), its transport and pacing, and the listings its
 * cells share. A new key, a new timezone or Refresh starts afresh: nothing one key fetched serves another.
 */
import { createLinenApi } from '../../shared/client.ts';
import type { AsyncTransport } from '../../shared/core/effects.ts';
import type { Api } from '../../shared/resources/index.ts';
import { Listings } from './listings.ts';

/** The service's relay below the page's origin (see excel-addin/service/relay.ts). */
export const RELAY_PATH = '/excel/api/v1';

/**
 * A cell's time: its listings' walks, their pacing waits and retries. Excel sets no limit of its own and keeps
 * working while a cell waits; a minute lets a cold sheet on a busy key be paced rather than fail.
 */
export const CELL_BUDGET_MS = 60_000;
/** One request's time, within the relay's own wait for the key's pacing (15 s) and the API's answer. */
export const REQUEST_TIMEOUT_MS = 40_000;

export class Session {
  readonly apiKey: string;
  readonly timeZone: string;
  readonly api: Api;
  readonly listings = new Listings();
  readonly transport: AsyncTransport;

  constructor(o: { apiKey: string; timeZone: string; origin: string; transport: AsyncTransport }) {
    this.apiKey = o.apiKey;
    this.timeZone = o.timeZone;
    this.transport = o.transport;
    // The client's own pacing (120 a minute) keeps this workbook under the key's limit; the relay paces the key
    // across everyone using it.
    this.api = createLinenApi({
      apiKey: o.apiKey,
      baseUrl: `${o.origin}${RELAY_PATH}`,
      timeZone: o.timeZone,
      timeBudgetMs: CELL_BUDGET_MS,
      requestTimeoutMs: REQUEST_TIMEOUT_MS,
      userAgent: 'linen-connect-excel/0.1',
    });
  }
}
