/**
 * The client against each Linen API fault of the matrix (test/support/api-faults.ts), over real HTTP: the
 * sentence a person is shown, the requests really sent (the sandbox's own log), and a healthy call right after.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../sandbox/index.ts';
import { createLinenClient, type LinenClient, LinenError, ResponseShapeError } from '../../shared/node.ts';
import { API_FAULTS, type ApiFault, expectedRequests, RETRIES } from '../support/api-faults.ts';
import { KEYS, startTestSandbox } from '../support/sandbox-http.ts';

const SENTENCES: Record<NonNullable<ApiFault['sentence']>, RegExp> = {
  'not answering': /^The Linen API did not answer in time; try again\.$/,
  busy: /^The Linen API is busy \(rate limited\); try again in 1 second\.$/,
  'internal error': /^The Linen API had an internal error \(request req_\w+\); quote it to support\.$/,
  unreachable: /^Could not reach the Linen API; check the network and try again\.$/,
  'unexpected response':
    /^The Linen API sent an unexpected response for GET \/invoices \(request req_\w+\); try again or quote it to support\.$/,
};

let sandbox: Sandbox;
let client: LinenClient;

beforeAll(async () => {
  sandbox = await startTestSandbox();
  client = createLinenClient({
    apiKey: KEYS.all,
    baseUrl: sandbox.baseUrl,
    timeZone: 'America/Chicago',
    maxRetries: RETRIES,
    initialRetryDelayMs: 20,
    requestTimeoutMs: 400,
    pacing: false,
  });
});
afterEach(() => {
  sandbox.faults.reset();
  sandbox.requests.clear();
});
afterAll(async () => {
  await client?.close();
  await sandbox?.close();
});

/** A walk over two pages at least, so a repeated cursor is met. */
const walkInvoices = () => client.invoices.list({ limit: 20 }).all();

describe.each(API_FAULTS)('$name', (f) => {
  it('the client answers as the matrix says, with bounded requests, and serves the next call', async () => {
    sandbox.faults.enqueue(f.fault);
    const outcome = await walkInvoices().then(
      (rows) => ({ rows }),
      (error: unknown) => ({ error }),
    );
    if (f.sentence === null) {
      expect(outcome).toHaveProperty('rows');
      const rows = (outcome as { rows: Awaited<ReturnType<typeof walkInvoices>> }).rows;
      expect(rows.length).toBeGreaterThan(0);
      // Open enums: the unknown value passes through; the extra field is no reason to refuse the row.
      expect(rows[0]!.status).toBe('future_status');
      expect(rows[0]!.invoice_number).toMatch(/^[A-Z]+-\d\d-\d+$/);
    } else {
      const error = (outcome as { error: unknown }).error;
      expect(error).toBeInstanceOf(LinenError);
      expect((error as LinenError).userMessage).toMatch(SENTENCES[f.sentence]);
      if (f.sentence === 'unexpected response') expect(error).toBeInstanceOf(ResponseShapeError);
      expect(sandbox.requests.count).toBe(expectedRequests(f));
    }

    sandbox.faults.reset();
    sandbox.requests.clear();
    const healthy = await client.customers.list().page();
    expect(healthy.data.length).toBeGreaterThan(0);
    expect(sandbox.requests.count).toBe(1);
  });
});
