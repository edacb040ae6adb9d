/**
 * Every refusal of the feed, over HTTP: no credentials (401 and the Basic challenge that makes Excel and Power BI
 * ask), a key in the query string (400, nothing sent to the API), a method other than GET and HEAD (405), an
 * unknown set or path (404), a lookup by key, an option or a filter the feed does not do (501), a query that is
 * not valid for the set (400); and the Linen API's own failures (a revoked key, a missing scope, a rate limit
 * after the client's retries, a server error) as OData errors with the sentences every surface shows. Each is
 * an OData error body with one sentence, never a 500, and no log line carries the key.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { basic, DEMO_KEY, type ODataHarness, startODataHarness } from '../support/odata-harness.ts';
import { assertNoLeaks } from '../support/secret-leaks.ts';

const REVOKED = 'lk_live_demo_revoked';
const OPS_ONLY = 'lk_live_demo_mercy_ops';
let h: ODataHarness;

beforeAll(async () => {
  h = await startODataHarness();
});
afterEach(() => h.sandbox.faults.reset());
afterAll(async () => {
  await h?.close();
  assertNoLeaks(
    [DEMO_KEY, REVOKED, OPS_ONLY],
    h.logs.map((text) => ({ source: 'feed log line', text })),
  );
});

/** The OData error of a response: its status, code and sentence, checked for the shape every error has. */
async function odataError(r: Response): Promise<{ status: number; code: string; message: string }> {
  expect(r.status).not.toBe(500);
  expect(r.headers.get('content-type')).toMatch(/^application\/json/);
  expect(r.headers.get('odata-version')).toBe('4.0');
  const body = (await r.json()) as { error: { code: string; message: string } };
  expect(Object.keys(body)).toEqual(['error']);
  // One sentence: one line, ending with a full stop (it may begin with the property or value it is about).
  expect(body.error.message).toMatch(/^\S[^\n]*\.$/);
  return { status: r.status, code: body.error.code, message: body.error.message };
}

const q = (s: string) => encodeURIComponent(s);

describe('credentials', () => {
  it('asks for Basic credentials without any, and sends nothing to the API', async () => {
    const before = h.sandbox.requests.count;
    for (const path of ['/odata/', '/odata/$metadata', '/odata/Invoices']) {
      const r = await h.get(path, { auth: null });
      expect(r.headers.get('www-authenticate')).toBe('Basic realm="Linen"');
      const e = await odataError(r);
      expect(e).toMatchObject({ status: 401, code: 'unauthorized' });
      expect(e.message).toContain('password');
    }
    expect(h.sandbox.requests.count).toBe(before);
  });

  it('asks again when the password is empty, and takes the key as a Bearer token too', async () => {
    const empty = await h.get('/odata/Customers', { auth: basic('') });
    expect(await odataError(empty)).toMatchObject({ status: 401 });
    expect(empty.headers.get('www-authenticate')).toBe('Basic realm="Linen"');
    const bearer = await h.get('/odata/Customers?$top=1', { auth: `Bearer ${DEMO_KEY}` });
    expect(bearer.status).toBe(200);
  });

  it('refuses a key in the query string with 400 and never forwards it', async () => {
    const before = h.sandbox.requests.count;
    for (const query of [`api_key=${DEMO_KEY}`, `key=${DEMO_KEY}`, `$filter=${q(`name eq '${DEMO_KEY}'`)}`]) {
      const r = await h.get(`/odata/Customers?${query}`);
      expect(await odataError(r)).toMatchObject({ status: 400, code: 'credential_in_query' });
    }
    const withoutHeader = await h.get(`/odata/Customers?token=${REVOKED}`, { auth: null });
    expect(await odataError(withoutHeader)).toMatchObject({ status: 400, code: 'credential_in_query' });
    expect(h.sandbox.requests.count).toBe(before);
  });

  it('passes on a revoked key as the API says it, with the sentence and the challenge that asks again', async () => {
    const r = await h.get('/odata/Invoices', { key: REVOKED });
    expect(r.headers.get('www-authenticate')).toBe('Basic realm="Linen"');
    expect(await odataError(r)).toEqual({
      status: 401,
      code: 'unauthorized',
      message: 'The API key was rejected: it may be revoked or mistyped.',
    });
  });

  it('passes on a missing scope as 403 with the sentence naming the scope', async () => {
    const r = await h.get('/odata/Invoices', { key: OPS_ONLY });
    expect(await odataError(r)).toEqual({
      status: 403,
      code: 'forbidden',
      message: 'This key has no accounting access.',
    });
  });
});

describe('methods and paths', () => {
  it.each(['POST', 'PUT', 'PATCH', 'DELETE'])('refuses %s with 405 and Allow: GET, HEAD', async (method) => {
    const before = h.sandbox.requests.count;
    const r = await h.get('/odata/Customers', { method });
    expect(r.headers.get('allow')).toBe('GET, HEAD');
    expect(await odataError(r)).toMatchObject({ status: 405, code: 'method_not_allowed' });
    expect(h.sandbox.requests.count).toBe(before);
  });

  it('answers HEAD with the headers of GET and no body', async () => {
    const r = await h.get('/odata/$metadata', { method: 'HEAD' });
    expect(r.status).toBe(200);
    expect(Number(r.headers.get('content-length'))).toBeGreaterThan(1000);
    expect(await r.text()).toBe('');
  });

  it('answers an unknown set with 404 naming the sets, a lookup by key or a property path with 501', async () => {
    const unknown = await odataError(await h.get('/odata/Widgets'));
    expect(unknown).toMatchObject({ status: 404, code: 'not_found' });
    expect(unknown.message).toContain('Deliveries');
    expect(await odataError(await h.get("/odata/Customers('c123')"))).toMatchObject({ status: 501 });
    expect(await odataError(await h.get('/odata/Customers/name'))).toMatchObject({ status: 501 });
    expect(await odataError(await h.get('/odata/Customers/name/$value'))).toMatchObject({ status: 404 });
  });

  it('moves /odata to /odata/, where relative links resolve', async () => {
    const r = await fetch(`${h.origin}/odata`, { redirect: 'manual' });
    expect(r.status).toBe(308);
    expect(r.headers.get('location')).toBe('/odata/');
  });
});

describe('queries the feed does not do, or that are wrong for the set', () => {
  it.each([
    ['$expand=departments', 501],
    ['$search=Mercy', 501],
    [`$apply=${q('groupby((status))')}`, 501],
    [`$filter=${q("not (status eq 'paid')")}`, 501],
    [`$filter=${q("tolower(status) eq 'paid'")}`, 501],
    [`$filter=${q('total add 1 gt 5')}`, 501],
    [`$filter=${q('total gt balance')}`, 501],
    [`$filter=${q('@p eq 1')}`, 501],
    [`$filter=${q('nope eq 1')}`, 400],
    [`$filter=${q("total eq 'a lot'")}`, 400],
    [`$filter=${q('issued_at ge 2026-10-01')}`, 400],
    [`$filter=${q('issued_at ge 2026-02-30T00:00:00Z')}`, 400],
    [`$filter=${q("status eq 'paid' and")}`, 400],
    [`$filter=${q("(status eq 'paid'")}`, 400],
    [`$filter=${q("status eq 'paid")}`, 400],
    ['$top=-1', 400],
    ['$skip=abc', 400],
    ['$count=yes', 400],
    ['$select=nothing', 400],
    [`$orderby=${q('aging')}`, 400],
    ['$format=xml', 400],
    ['$top=1&$top=2', 400],
    ['hello=world', 400],
    ['$skiptoken=not-ours', 400],
  ])('%s: %i with a sentence', async (query, status) => {
    const r = await h.get(`/odata/Invoices?${query}`);
    expect(await odataError(r)).toMatchObject({ status });
  });

  it('reads a set with customer figures for one customer at a time, and refuses a window on Deliveries with no start', async () => {
    const two = await h.get(`/odata/Items?$filter=${q("customer_id eq 'a' or customer_id eq 'b'")}`);
    expect(await odataError(two)).toMatchObject({ status: 501 });
    const noStart = await h.get(`/odata/Deliveries?$filter=${q('date le 2026-10-01')}`);
    const e = await odataError(noStart);
    expect(e).toMatchObject({ status: 400, code: 'window_needs_start' });
    const tooLong = await h.get(`/odata/Deliveries?$filter=${q('date ge 2000-01-01')}`);
    expect(await odataError(tooLong)).toMatchObject({ status: 400, code: 'window_too_long' });
  });
});

describe("the Linen API's failures", () => {
  it('a rate limit that outlasts the retries: 429 with Retry-After and the sentence', async () => {
    h.sandbox.faults.enqueue({ kind: '429', count: 10 });
    const r = await h.get('/odata/Units');
    expect(Number(r.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    const e = await odataError(r);
    expect(e.status).toBe(429);
    expect(e.message).toMatch(/^The Linen API is busy \(rate limited\); try again in \d+ seconds?\.$/);
  });

  it('a server error that outlasts the retries: 502 quoting the request id', async () => {
    h.sandbox.faults.enqueue({ kind: '500', count: 10 });
    const e = await odataError(await h.get('/odata/Carts'));
    expect(e.status).toBe(502);
    expect(e.message).toMatch(/^The Linen API had an internal error \(request req_\w+\); quote it to support\.$/);
  });

  it('a tool that hangs up mid-read: the read is dropped quietly, and the next request is answered', async () => {
    h.sandbox.faults.enqueue({ kind: 'latency', ms: 600 });
    const gone = new AbortController();
    const hungUp = fetch(`${h.origin}/odata/Orders`, {
      headers: { authorization: basic(DEMO_KEY) },
      signal: gone.signal,
    }).catch(() => 'aborted');
    await new Promise((resolve) => setTimeout(resolve, 100));
    gone.abort();
    expect(await hungUp).toBe('aborted');
    await new Promise((resolve) => setTimeout(resolve, 700));
    expect(h.logs.filter((l) => l.startsWith('error '))).toEqual([]);
    expect((await h.get('/odata/Orders?$top=1')).status).toBe(200);
  });

  it('a customer the key does not see: no rows, as a filter that matches nothing', async () => {
    const r = await h.get(`/odata/Invoices?$filter=${q("customer_id eq 'c_nobody'")}`);
    expect(r.status).toBe(200);
    expect(((await r.json()) as { value: unknown[] }).value).toEqual([]);
  });
});
