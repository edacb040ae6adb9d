/** Plain HTTP helpers for the sandbox contract tests: no client code, just fetch and the spec. */
import { type Sandbox, startSandbox } from '../../sandbox/index.ts';

export const KEYS = {
  all: 'lk_live_demo_all_access',
  mercyOps: 'lk_live_demo_mercy_ops',
  mercyBilling: 'lk_live_demo_mercy_billing',
  hotel: 'lk_live_demo_harbor_hotel',
  unitCounter: 'lk_live_demo_unit_counter',
  revoked: 'lk_live_demo_revoked',
} as const;

/** A fixed "today" a few days after the 2026 end of daylight saving time in America/Chicago (Nov 1). */
export const TODAY = '2026-11-05';

export interface ApiResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
}

export async function startTestSandbox(options: Parameters<typeof startSandbox>[0] = {}): Promise<Sandbox> {
  return startSandbox({ port: 0, today: TODAY, rateLimit: { limit: 100_000, windowMs: 60_000 }, ...options });
}

export async function call(
  sandbox: { baseUrl: string },
  path: string,
  init: { key?: string | null; method?: string; headers?: Record<string, string>; query?: Record<string, string> } = {},
): Promise<ApiResponse> {
  const url = new URL(sandbox.baseUrl + path);
  for (const [name, value] of Object.entries(init.query ?? {})) url.searchParams.append(name, value);
  const headers: Record<string, string> = { ...init.headers };
  const key = init.key === undefined ? KEYS.all : init.key;
  if (key !== null) headers.authorization = `Bearer ${key}`;
  const res = await fetch(url, { method: init.method ?? 'GET', headers });
  const type = res.headers.get('content-type') ?? '';
  const body = type.includes('application/json') ? await res.json() : new Uint8Array(await res.arrayBuffer());
  return { status: res.status, headers: res.headers, body };
}

/** Follows cursors to the end of a list and returns every row, checking each page's envelope on the way. */
export async function listAll(
  sandbox: { baseUrl: string },
  path: string,
  query: Record<string, string> = {},
  key: string = KEYS.all,
): Promise<any[]> {
  const rows: any[] = [];
  let cursor: string | null = null;
  for (let page = 0; page < 10_000; page++) {
    const res: ApiResponse = await call(sandbox, path, {
      key,
      query: { limit: '200', ...query, ...(cursor ? { cursor } : {}) },
    });
    if (res.status !== 200) throw new Error(`${path} answered ${res.status}: ${JSON.stringify(res.body)}`);
    rows.push(...res.body.data);
    if (!res.body.pagination.has_more) {
      if (res.body.pagination.cursor !== null) throw new Error(`${path}: last page has a cursor`);
      return rows;
    }
    cursor = res.body.pagination.cursor;
  }
  throw new Error(`${path}: pagination did not end`);
}

export function expectError(res: ApiResponse, status: number, code: string): void {
  if (res.status !== status || res.body?.error?.code !== code) {
    throw new Error(`expected ${status} ${code}, got ${res.status} ${JSON.stringify(res.body)}`);
  }
  if (typeof res.body.error.message !== 'string' || res.body.error.message.length === 0) {
    throw new Error('error without a message');
  }
  if (!/^req_[A-Za-z0-9]+$/.test(res.body.request_id)) throw new Error(`bad request_id ${res.body.request_id}`);
  const keys = Object.keys(res.body).sort().join(',');
  if (keys !== 'error,request_id') throw new Error(`error envelope has fields ${keys}`);
}
