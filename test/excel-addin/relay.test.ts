/**
 * The relay at /excel/api/v1, over real HTTP in front of the sandbox: GET only, below /v1 of the one configured
 * API, with the caller's own bearer key (none: 401, the API not called), no credential in the query, no redirect
 * followed, nothing kept; identical requests in flight sent once; each key paced; and no key in its log lines.
 */
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type Sandbox, startSandbox } from '../../sandbox/index.ts';
import { DEMO_KEY, startExcelService, TODAY, TZ } from '../support/excel-harness.ts';
import { startGatedApi } from '../support/gated-api.ts';
import { assertNoLeaks } from '../support/secret-leaks.ts';

const OTHER_KEY = 'lk_live_demo_harbor_hotel';
let sandbox: Sandbox;
let service: Awaited<ReturnType<typeof startExcelService>>;
const logs: string[] = [];

beforeAll(async () => {
  sandbox = await startSandbox({
    port: 0,
    today: TODAY,
    timeZone: TZ,
    rateLimit: { limit: 100_000, windowMs: 60_000 },
  });
  service = await startExcelService('/nonexistent', sandbox.baseUrl);
});
afterEach(() => {
  logs.push(...service.logs.splice(0));
});
afterAll(async () => {
  await service?.close();
  await sandbox?.close();
  assertNoLeaks(
    [DEMO_KEY, OTHER_KEY],
    logs.map((text) => ({ source: 'relay log line', text })),
  );
});

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** A raw HTTP request: the path goes out exactly as written (no client normalizes it). */
function send(
  origin: string,
  path: string,
  o: { method?: string; key?: string | null; headers?: Record<string, string> } = {},
): Promise<Answer> {
  const url = new URL(origin);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: url.hostname,
        port: url.port,
        path,
        method: o.method ?? 'GET',
        headers: { ...(o.key === null ? {} : { authorization: `Bearer ${o.key ?? DEMO_KEY}` }), ...o.headers },
      },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => {
          body += c;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      },
    );
    req.on('error', reject);
    req.end();
  });
}

const code = (a: Answer) => (JSON.parse(a.body) as { error: { code: string } }).error.code;

/** The API's requests during `work`. */
async function apiRequests(work: () => Promise<unknown>): Promise<number> {
  const before = sandbox.requests.count;
  await work();
  return sandbox.requests.count - before;
}

describe('what it forwards', () => {
  it("a GET below /v1 with the caller's key: the API's answer, its status and its JSON headers, never cached", async () => {
    const direct = await fetch(`${sandbox.baseUrl}/customers?limit=2`, {
      headers: { authorization: `Bearer ${DEMO_KEY}` },
    });
    const relayed = await send(service.origin, '/excel/api/v1/customers?limit=2');
    expect(relayed.status).toBe(200);
    const a = (await direct.json()) as { data: unknown[] };
    const b = JSON.parse(relayed.body) as { data: unknown[]; request_id: string };
    expect(b.data).toEqual(a.data);
    expect(relayed.headers['content-type']).toMatch(/^application\/json/);
    expect(relayed.headers['cache-control']).toBe('no-store');
    expect(relayed.headers['x-request-id']).toBe(b.request_id);
    // An error of the API is the API's (its status and envelope), for the add-in's client to read.
    const hotel = await send(service.origin, '/excel/api/v1/invoices', { key: 'lk_live_demo_mercy_ops' });
    expect(hotel.status).toBe(403);
    expect(code(hotel)).toBe('forbidden');
  });

  it('keeps nothing: the same GET twice, one after the other, is two requests to the API', async () => {
    expect(
      await apiRequests(async () => {
        await send(service.origin, '/excel/api/v1/items?limit=1');
        await send(service.origin, '/excel/api/v1/items?limit=1');
      }),
    ).toBe(2);
  });
});

describe('what it refuses, without calling the API', () => {
  it.each(['POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'])('%s: 405, GET only', async (method) => {
    let a: Answer | undefined;
    expect(await apiRequests(async () => (a = await send(service.origin, '/excel/api/v1/customers', { method })))).toBe(
      0,
    );
    expect(a!.status).toBe(405);
    expect(a!.headers.allow).toBe('GET');
  });

  it.each([
    '/excel/api/v1/../../healthz',
    '/excel/api/v1/customers/../../../x',
    '/excel/api/v1/%2e%2e/%2e%2e/x',
    '/excel/api/v1/customers%2F..%2F..',
    '/excel/api/v1//customers',
    '/excel/api/v1/',
    '/excel/api/v1/http:%2F%2Fevil.example%2Fv1',
    '/excel/api/v1/customers\\..\\x',
  ])('another path (%s): 404', async (path) => {
    let a: Answer | undefined;
    expect(await apiRequests(async () => (a = await send(service.origin, path)))).toBe(0);
    expect(a!.status).toBe(404);
  });

  it('another version of the API: 404', async () => {
    const a = await send(service.origin, '/excel/api/v2/customers');
    expect(a.status).toBe(404);
  });

  it.each([
    '?key=abc',
    '?api_key=abc',
    '?Token=abc',
    '?access_token=abc',
    `?customer_id=${DEMO_KEY}`,
    '?limit=1&q=lk_test_0123456789abcdef',
    '?note=Bearer%20abcdef',
  ])('a credential in the query (%s): 400', async (query) => {
    let a: Answer | undefined;
    expect(await apiRequests(async () => (a = await send(service.origin, `/excel/api/v1/customers${query}`)))).toBe(0);
    expect(a!.status).toBe(400);
    expect(code(a!)).toBe('credential_in_query');
  });

  it("logs each refusal as one line with the method and the path's template, never the query", () => {
    const lines = service.logs.concat(logs).filter((l) => l.startsWith('excel relay: refused'));
    expect(lines).toContain('excel relay: refused POST /excel/api/v1/customers: not a GET');
    expect(lines).toContain('excel relay: refused GET /excel/api/v1/(refused path): not an API path');
    expect(lines).toContain('excel relay: refused GET /excel/api/v1/customers: a credential in the query');
    for (const l of lines) expect(l).not.toMatch(/[?=]/);
  });

  it('no bearer key (or another kind of credential): 401', async () => {
    const credentials: Record<string, string>[] = [
      {},
      { authorization: `Basic ${Buffer.from(`x:${DEMO_KEY}`).toString('base64')}` },
      { authorization: 'Bearer' },
    ];
    for (const headers of credentials) {
      let a: Answer | undefined;
      expect(
        await apiRequests(
          async () => (a = await send(service.origin, '/excel/api/v1/customers', { key: null, headers })),
        ),
      ).toBe(0);
      expect(a!.status).toBe(401);
      expect(code(a!)).toBe('unauthorized');
    }
  });
});

describe('a redirect', () => {
  let elsewhere: Server;
  let redirecting: Server;
  let elsewhereHits = 0;
  beforeAll(async () => {
    const listen = async (s: Server) => {
      await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
      return `http://127.0.0.1:${(s.address() as AddressInfo).port}`;
    };
    elsewhere = createServer((_req, res) => {
      elsewhereHits++;
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"data":[]}');
    });
    const target = await listen(elsewhere);
    redirecting = createServer((req, res) => {
      res.writeHead(302, { location: `${target}${req.url}` });
      res.end();
    });
    await listen(redirecting);
  });
  afterAll(async () => {
    for (const s of [elsewhere, redirecting]) {
      s.closeAllConnections();
      await new Promise<void>((resolve) => s.close(() => resolve()));
    }
  });

  it('is not followed: 502, and the key never reaches where it points', async () => {
    const port = (redirecting.address() as AddressInfo).port;
    const relay = await startExcelService('/nonexistent', `http://127.0.0.1:${port}/v1`);
    try {
      const a = await send(relay.origin, '/excel/api/v1/customers');
      expect(a.status).toBe(502);
      expect(code(a)).toBe('redirect_refused');
      expect(a.headers.location).toBeUndefined();
      expect(elsewhereHits).toBe(0);
      logs.push(...relay.logs);
    } finally {
      await relay.close();
    }
  });
});

describe('identical requests and pacing', () => {
  it('identical GETs in flight for one key are sent once; another key sends its own', async () => {
    const gate = await startGatedApi(sandbox.baseUrl);
    const relay = await startExcelService('/nonexistent', gate.baseUrl);
    try {
      const same = Array.from({ length: 10 }, () => send(relay.origin, '/excel/api/v1/items?limit=3'));
      const other = send(relay.origin, '/excel/api/v1/items?limit=3', { key: OTHER_KEY });
      await gate.until(() => gate.held.length === 2, 'one request per key');
      gate.open();
      const answers = await Promise.all(same);
      expect(new Set(answers.map((a) => a.status))).toEqual(new Set([200]));
      expect(new Set(answers.map((a) => a.body)).size).toBe(1);
      expect((await other).status).toBe(200);
      expect(gate.held).toHaveLength(2);
      logs.push(...relay.logs);
    } finally {
      await relay.close();
      await gate.close();
    }
  });

  it('a caller that hangs up cancels a request nobody else waits for', async () => {
    const gate = await startGatedApi(sandbox.baseUrl);
    const relay = await startExcelService('/nonexistent', gate.baseUrl);
    try {
      const url = new URL(relay.origin);
      const req = request({
        host: url.hostname,
        port: url.port,
        path: '/excel/api/v1/ratings',
        headers: { authorization: `Bearer ${DEMO_KEY}` },
      });
      req.on('error', () => {});
      req.end();
      await gate.until(() => gate.held.length === 1, 'the request at the API');
      req.destroy();
      await gate.until(() => gate.held[0]!.closedEarly, 'the request cancelled');
      logs.push(...relay.logs);
    } finally {
      await relay.close();
      await gate.close();
    }
  });

  it("takes a slot of the key's pacing per request: past the limit, 429 with Retry-After, and the API is not called", async () => {
    const relay = await startExcelService('/nonexistent', sandbox.baseUrl, { pacing: { limit: 2, windowMs: 60_000 } });
    try {
      let answers: Answer[] = [];
      const n = await apiRequests(async () => {
        for (const limit of [1, 2, 3]) answers.push(await send(relay.origin, `/excel/api/v1/items?limit=${limit}`));
      });
      expect(n).toBe(2);
      expect(answers.map((a) => a.status)).toEqual([200, 200, 429]);
      expect(code(answers[2]!)).toBe('rate_limited');
      expect(Number(answers[2]!.headers['retry-after'])).toBeGreaterThan(15);
      // Another key has its own budget.
      answers = [await send(relay.origin, '/excel/api/v1/items?limit=1', { key: OTHER_KEY })];
      expect(answers[0]!.status).toBe(200);
      logs.push(...relay.logs);
    } finally {
      await relay.close();
    }
  });

  it("passes the API's 429 on with its Retry-After, and holds the key's next request back", async () => {
    const relay = await startExcelService('/nonexistent', sandbox.baseUrl);
    try {
      sandbox.faults.enqueue({ kind: '429', count: 1 });
      const first = await send(relay.origin, '/excel/api/v1/payments?limit=1');
      expect(first.status).toBe(429);
      expect(first.headers['retry-after']).toBe('1');
      const started = Date.now();
      const next = await send(relay.origin, '/excel/api/v1/payments?limit=2');
      expect(next.status).toBe(200);
      expect(Date.now() - started).toBeGreaterThanOrEqual(900);
      logs.push(...relay.logs);
    } finally {
      await relay.close();
    }
  });
});
