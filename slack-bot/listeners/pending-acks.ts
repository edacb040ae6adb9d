/**
 * Let requests already waiting be acknowledged before this one's work starts: Slack wants every ack within
 * 3 seconds, and a burst of commands must not wait behind the first one's API calls.
 */
export function yieldToPendingAcks(): Promise<void> {
  return new Promise<void>((resolve) => setImmediate(resolve));
}
