/**
 * What a client reports about its own traffic, for whoever runs it to count (the bot's metrics). Plain callbacks,
 * called synchronously from the request core: they must be cheap and must not throw. No event carries the key, a
 * full URL or an id: `endpoint` is the endpoint's template, such as `GET /customers/{id}/departments`.
 */
export interface RequestObserver {
  /**
   * One HTTP request answered or failed. `status` is the HTTP status (`200`, `404`, `429`, `503`...), or
   * `timeout` (no answer within the request's timeout) or `connection` (the connection failed or dropped).
   */
  request?(event: { endpoint: string; status: string; seconds: number }): void;
  /** The key's pacing held a request back before sending it. */
  pacingWait?(event: { seconds: number }): void;
  /** The key's pacing could not give a slot within the call's time budget: the call failed as rate limited. */
  pacingRefused?(): void;
  /** A slot taken: `used` requests of the key's `limit` counted in its window then (this one included). */
  slotTaken?(event: { used: number; limit: number }): void;
  /** An answer shared with another caller of the key: a request already in flight, or one answered recently. */
  shared?(event: { endpoint: string; how: 'coalesced' | 'cached' }): void;
}

/** The status label of a response: its code when it is an HTTP status, else `other`. */
export function statusLabel(status: number): string {
  return Number.isInteger(status) && status >= 100 && status <= 599 ? String(status) : 'other';
}
