/**
 * The Linen API faults every surface is tested against (test/shared, test/apps-script and test/slack-bot
 * faults.test.ts): what the sandbox is told to do, and how many requests a client with `RETRIES` retries sends.
 */
import type { QueuedFault } from '../../sandbox/index.ts';

/** The retries the surfaces under test are given, so a persistent fault costs `RETRIES + 1` requests. */
export const RETRIES = 2;

/** More than any call retries: the fault lasts until it is reset. */
const PERSISTENT = 50;

export interface ApiFault {
  /** The fault as the matrix names it. */
  name: string;
  fault: QueuedFault;
  /**
   * `retried`: transient, sent `RETRIES + 1` times then answered with a sentence; `once`: not worth a retry,
   * answered at once; `walk`: a repeated cursor, found on the second page; `passes`: the answer is served.
   */
  outcome: 'retried' | 'once' | 'walk' | 'passes';
  /** What the person is told (`passes`: nothing to tell). */
  sentence: 'not answering' | 'busy' | 'internal error' | 'unreachable' | 'unexpected response' | null;
}

export const API_FAULTS: readonly ApiFault[] = [
  { name: 'a hang', fault: { kind: 'hang', count: PERSISTENT }, outcome: 'retried', sentence: 'not answering' },
  { name: 'a 429 storm', fault: { kind: '429', count: PERSISTENT }, outcome: 'retried', sentence: 'busy' },
  { name: 'a run of 500s', fault: { kind: '500', count: PERSISTENT }, outcome: 'retried', sentence: 'internal error' },
  {
    name: 'dropped connections',
    fault: { kind: 'drop', count: PERSISTENT },
    outcome: 'retried',
    sentence: 'unreachable',
  },
  {
    name: 'truncated JSON',
    fault: { kind: 'malformed', count: PERSISTENT },
    outcome: 'retried',
    sentence: 'unexpected response',
  },
  {
    name: 'malformed JSON',
    fault: { kind: 'invalid_json', count: PERSISTENT },
    outcome: 'retried',
    sentence: 'unexpected response',
  },
  {
    name: 'a wrong Content-Type',
    fault: { kind: 'html', count: PERSISTENT },
    outcome: 'retried',
    sentence: 'unexpected response',
  },
  {
    name: 'unknown enum values and extra fields',
    fault: { kind: 'evolved', count: PERSISTENT },
    outcome: 'passes',
    sentence: null,
  },
  {
    name: 'a missing required field',
    fault: { kind: 'missing_field', count: PERSISTENT },
    outcome: 'once',
    sentence: 'unexpected response',
  },
  {
    name: 'a repeated cursor',
    fault: { kind: 'repeated_cursor', count: PERSISTENT },
    outcome: 'walk',
    sentence: 'unexpected response',
  },
];

/** The requests a fault costs a call that fails on its first listing, given the retries of the surface. */
export function expectedRequests(f: ApiFault, retries = RETRIES): number {
  if (f.outcome === 'retried') return retries + 1;
  if (f.outcome === 'walk') return 2;
  return 1;
}
