import { describe, expect, it } from 'vitest';
import { decodeUtf8 } from '../../shared/core/decode.ts';
import { backgroundPacer, Pacer, type PacingState, pacingStep, settleStep } from '../../shared/core/pacing.ts';
import { formatPath } from '../../shared/core/parse-json.ts';
import { backoffDelay, DEFAULT_RETRY, decideRetry, parseRetryAfter } from '../../shared/core/retry.ts';
import { nextCursor } from '../../shared/core/walk.ts';
import { addDays, daysInclusive, lastNDays, splitWindow, toIsoDay } from '../../shared/dates.ts';
import { startOfDayInZone } from '../../shared/day-start.ts';
import {
  AuthenticationError,
  ConnectionError,
  errorFromResponse,
  InternalServerError,
  InvalidParamsError,
  NotFoundError,
  PermissionDeniedError,
  type RateLimitError,
  ResponseShapeError,
} from '../../shared/errors.ts';
import { buildQuery, P } from '../../shared/params.ts';
import { redact } from '../../shared/redact.ts';
import { parseHttpUrl } from '../../shared/url.ts';

const KEY = 'lk_live_supersecret_0123456789';
const api = (status: number, extra: Record<string, unknown> = {}) =>
  errorFromResponse({ status, code: 'x', message: 'm', requestId: 'req_1', ...extra });

describe('backoff and retry decisions', () => {
  it('grows exponentially, is capped, and jitters down by at most 25%', () => {
    const p = { maxRetries: 10, initialDelayMs: 500, maxDelayMs: 8000 };
    expect(backoffDelay(0, p, () => 0)).toBe(500);
    expect(backoffDelay(1, p, () => 0)).toBe(1000);
    expect(backoffDelay(3, p, () => 0)).toBe(4000);
    expect(backoffDelay(9, p, () => 0)).toBe(8000);
    expect(backoffDelay(9, p, () => 0.9999)).toBeGreaterThanOrEqual(6000);
  });

  it('parses Retry-After as seconds or an HTTP date', () => {
    expect(parseRetryAfter('3', 0)).toBe(3000);
    expect(parseRetryAfter(undefined, 0)).toBeUndefined();
    expect(parseRetryAfter('Thu, 01 Jan 1970 00:00:10 GMT', 4000)).toBe(6000);
    expect(parseRetryAfter('soon', 0)).toBeUndefined();
  });

  it('retries 429, 5xx and connection failures, never other 4xx', () => {
    const r = () => 0;
    for (const s of [400, 401, 403, 404, 405, 422])
      expect(decideRetry(api(s), 0, DEFAULT_RETRY, 60_000, r).retry).toBe(false);
    expect(decideRetry(api(500), 0, DEFAULT_RETRY, 60_000, r)).toEqual({ retry: true, delayMs: 500 });
    expect(decideRetry(api(503), 1, DEFAULT_RETRY, 60_000, r)).toEqual({ retry: true, delayMs: 1000 });
    expect(decideRetry(new ConnectionError({ message: 'reset' }), 0, DEFAULT_RETRY, 60_000, r).retry).toBe(true);
    expect(decideRetry(new Error('bug'), 0, DEFAULT_RETRY, 60_000, r).retry).toBe(false);
  });

  it('honours Retry-After over the backoff, and gives up when the wait would overrun the budget', () => {
    const e = api(429, { retryAfterMs: 7000 });
    expect(decideRetry(e, 0, DEFAULT_RETRY, 60_000, () => 0)).toEqual({ retry: true, delayMs: 7000 });
    expect(decideRetry(e, 0, DEFAULT_RETRY, 5_000, () => 0)).toEqual({ retry: false });
    expect(decideRetry(api(500), 3, DEFAULT_RETRY, 60_000, () => 0)).toEqual({ retry: false });
  });

  it('retries an unreadable body but not a well-formed body of the wrong shape', () => {
    const body = new ResponseShapeError({
      endpoint: 'GET /x',
      field: '(body)',
      detail: 'not JSON',
      requestId: undefined,
    });
    const shape = new ResponseShapeError({
      endpoint: 'GET /x',
      field: 'data[0].id',
      detail: 'bad',
      requestId: 'req_1',
    });
    expect(decideRetry(body, 0, DEFAULT_RETRY, 60_000, () => 0).retry).toBe(true);
    expect(decideRetry(shape, 0, DEFAULT_RETRY, 60_000, () => 0).retry).toBe(false);
  });
});

describe('pacing', () => {
  const opts = { limit: 3, windowMs: 1000, marginMs: 0 };
  it('lets `limit` requests through, then waits until the oldest leaves the window', () => {
    let s: PacingState = { sent: [], blockedUntil: 0 };
    for (const t of [0, 10, 20]) {
      const r = pacingStep(s, t, opts);
      expect(r.waitMs).toBe(0);
      s = r.state;
    }
    const full = pacingStep(s, 30, opts);
    expect(full.waitMs).toBe(970);
    expect(pacingStep(full.state, 1000, opts).waitMs).toBe(0);
  });

  it('never lets more than `limit` requests into any window, whatever the arrival pattern', () => {
    const pacer = new Pacer({ limit: 5, windowMs: 1000, marginMs: 0 });
    const sentAt: number[] = [];
    let t = 0;
    for (let i = 0; i < 40; i++) {
      t += [0, 3, 50, 400][i % 4] as number;
      for (;;) {
        const w = pacer.tryAcquire(t);
        if (w === 0) break;
        t += w;
      }
      sentAt.push(t);
    }
    for (const a of sentAt) expect(sentAt.filter((b) => b >= a && b < a + 1000).length).toBeLessThanOrEqual(5);
  });

  it('background work leaves its reserve of every window to interactive requests of the same key', () => {
    const pacer = new Pacer({ limit: 8, windowMs: 1000, marginMs: 0 });
    const background = backgroundPacer(pacer);
    // A quarter of the window (2 of 8) is left: background takes 6 slots, then waits for the oldest to leave.
    for (const t of [0, 1, 2, 3, 4, 5]) expect(background.acquire(t)).toMatchObject({ waitMs: 0 });
    expect(background.acquire(6)).toMatchObject({ waitMs: 994 });
    // A person waiting takes the two slots left at once; only then is the window full for them too.
    expect(pacer.acquire(7)).toMatchObject({ waitMs: 0 });
    expect(pacer.acquire(8)).toMatchObject({ waitMs: 0 });
    expect(pacer.acquire(9).waitMs).toBeGreaterThan(0);
    // A 429 holds back both: they share the window.
    background.blockFor(1500, 1000);
    expect(pacer.tryAcquire(1600)).toBe(900);
  });

  it('blocks after a 429 until Retry-After has passed', () => {
    const pacer = new Pacer({ limit: 100, windowMs: 1000 });
    pacer.blockUntil(5000);
    expect(pacer.tryAcquire(1000)).toBe(4000);
    expect(pacer.tryAcquire(5000)).toBe(0);
  });

  it('dates a slot by its answer: the slot frees a window after the answer, not after the send', () => {
    const pacer = new Pacer({ limit: 1, windowMs: 1000, marginMs: 0 });
    const { waitMs, slot } = pacer.acquire(0);
    expect(waitMs).toBe(0);
    pacer.settle(slot, 300);
    expect(pacer.tryAcquire(1000)).toBe(300);
    expect(pacer.tryAcquire(1300)).toBe(0);
  });

  it('dated by the send, a slot frees a window and the margin after the send, and settling changes nothing', () => {
    const pacer = new Pacer({ limit: 1, windowMs: 1000, countFrom: 'send' });
    const { slot } = pacer.acquire(0);
    pacer.settle(slot, 300);
    expect(pacer.tryAcquire(500)).toBe(750);
  });

  it('still counts an answer whose slot had already left the window', () => {
    const s = settleStep({ sent: [0, 1500], blockedUntil: 0 }, 0, 2000, 1000);
    expect(s.sent).toEqual([1500, 2000]);
  });

  it('never lets more than `limit` requests be counted in any window when each is counted on arrival', () => {
    // The server counts a request somewhere between its send and its answer; here at a random point.
    const pacer = new Pacer({ limit: 4, windowMs: 1000 });
    const counted: number[] = [];
    let t = 0;
    let seed = 7;
    const rand = () => {
      seed = (seed * 48271) % 2147483647;
      return seed / 2147483647;
    };
    for (let i = 0; i < 60; i++) {
      let answer = pacer.acquire(t);
      while (answer.waitMs > 0) {
        t += answer.waitMs;
        answer = pacer.acquire(t);
      }
      const rtt = 1 + rand() * 400;
      counted.push(t + rand() * rtt);
      t += rtt;
      pacer.settle(answer.slot, t);
    }
    for (const a of counted) expect(counted.filter((b) => b >= a && b < a + 1000).length).toBeLessThanOrEqual(4);
  });

  it('keeps its state in an injectable store', () => {
    const saved: PacingState[] = [];
    let state: PacingState = { sent: [1, 2], blockedUntil: 0 };
    const pacer = new Pacer({
      limit: 2,
      windowMs: 1000,
      marginMs: 0,
      store: {
        load: () => state,
        save: (s) => {
          state = s;
          saved.push(s);
        },
      },
    });
    expect(pacer.tryAcquire(100)).toBe(901);
    expect(saved.length).toBe(1);
  });
});

describe('pagination guard', () => {
  it('stops on a repeated cursor and on has_more without a cursor', () => {
    const seen = new Set<string>();
    const page = (cursor: string | null, hasMore: boolean) => ({ data: [], cursor, hasMore, requestId: 'req_9' });
    expect(nextCursor(page('a', true), seen, 'GET /x')).toBe('a');
    expect(nextCursor(page('b', true), seen, 'GET /x')).toBe('b');
    expect(() => nextCursor(page('a', true), seen, 'GET /x')).toThrow(ResponseShapeError);
    expect(() => nextCursor(page(null, true), seen, 'GET /x')).toThrow(/pagination\.cursor/);
    expect(nextCursor(page(null, false), seen, 'GET /x')).toBeNull();
  });
});

describe('redaction and errors', () => {
  it('removes the key and any bearer token or authorization header', () => {
    expect(redact(`failed with ${KEY}`, [KEY])).not.toContain(KEY);
    expect(redact('Authorization: Bearer abc.def')).toBe('Authorization: [redacted]');
    expect(redact('{"authorization":"Bearer abc"}')).not.toContain('abc');
    expect(redact('sent bearer xyz123 along')).toBe('sent bearer [redacted] along');
  });

  it('never shows the key in message, toString, toJSON or stack', () => {
    const e = new ConnectionError({
      message: `socket closed; headers {authorization: Bearer ${KEY}}`,
      secrets: [KEY],
      cause: new Error(`x ${KEY}`),
    });
    for (const s of [e.message, String(e), JSON.stringify(e), e.stack ?? '', String((e.cause as Error).message)])
      expect(s).not.toContain(KEY);
  });

  it('maps statuses to classes with actionable user messages', () => {
    expect(api(401)).toBeInstanceOf(AuthenticationError);
    expect(api(401).userMessage).toBe('The API key was rejected: it may be revoked or mistyped.');
    const forbidden = errorFromResponse({
      status: 403,
      code: 'forbidden',
      message: 'no',
      requestId: 'req_2',
      scope: 'accounting',
    });
    expect(forbidden).toBeInstanceOf(PermissionDeniedError);
    expect(forbidden.userMessage).toBe('This key has no accounting access.');
    expect(api(404)).toBeInstanceOf(NotFoundError);
    expect(api(422)).toBeInstanceOf(InvalidParamsError);
    const limited = api(429, { retryAfterMs: 3000 }) as RateLimitError;
    expect(limited.retryAfterMs).toBe(3000);
    expect(limited.userMessage).toBe('The Linen API is busy (rate limited); try again in 3 seconds.');
    const ise = api(502);
    expect(ise).toBeInstanceOf(InternalServerError);
    expect(ise.userMessage).toBe('The Linen API had an internal error (request req_1); quote it to support.');
    expect(ise.toJSON()).toMatchObject({ status: 502, requestId: 'req_1', name: 'InternalServerError' });
  });

  it('formats field paths', () => {
    expect(formatPath(['data', 3, 'balance_cents'])).toBe('data[3].balance_cents');
    expect(formatPath(['pagination', 'has_more'])).toBe('pagination.has_more');
    expect(formatPath([])).toBe('(root)');
  });

  it('decodes UTF-8 without TextDecoder', () => {
    const bytes = new TextEncoder().encode('Café ✓ 𝄞');
    const TD = globalThis.TextDecoder;
    try {
      (globalThis as { TextDecoder?: unknown }).TextDecoder = undefined;
      expect(decodeUtf8(bytes)).toBe('Café ✓ 𝄞');
    } finally {
      globalThis.TextDecoder = TD;
    }
  });
});

describe('org-local days', () => {
  const tz = 'America/Chicago';
  it('splits windows into <=92-day chunks, newest first, covering every day once', () => {
    expect(splitWindow({ from: '2025-01-01', to: '2025-04-02' })).toEqual([{ from: '2025-01-01', to: '2025-04-02' }]);
    expect(daysInclusive('2025-01-01', '2025-04-02')).toBe(92);
    expect(splitWindow({ from: '2024-12-31', to: '2025-04-02' })).toEqual([
      { from: '2025-01-01', to: '2025-04-02' },
      { from: '2024-12-31', to: '2024-12-31' },
    ]);
    const chunks = splitWindow({ from: '2024-01-01', to: '2024-12-31' });
    expect(chunks.map((c) => daysInclusive(c.from, c.to))).toEqual([92, 92, 92, 90]);
    for (let i = 1; i < chunks.length; i++) expect(addDays(chunks[i]!.to, 1)).toBe(chunks[i - 1]!.from);
    expect(chunks.at(-1)!.from).toBe('2024-01-01');
    expect(() => splitWindow({ from: '2025-01-02', to: '2025-01-01' })).toThrow(InvalidParamsError);
  });

  it('computes "last N days" in the org timezone, today included, across DST changes', () => {
    // 2025-03-09 02:00 CST -> CDT. 05:30Z on the 9th is still 23:30 on the 8th in Chicago.
    expect(lastNDays(1, tz, new Date('2025-03-09T05:30:00Z'))).toEqual({ from: '2025-03-08', to: '2025-03-08' });
    expect(lastNDays(7, tz, new Date('2025-03-10T04:59:00Z'))).toEqual({ from: '2025-03-03', to: '2025-03-09' });
    expect(lastNDays(7, tz, new Date('2025-03-10T05:00:00Z'))).toEqual({ from: '2025-03-04', to: '2025-03-10' });
    // 2025-11-02 02:00 CDT -> CST. 05:30Z on the 3rd is 23:30 on the 2nd (CST).
    expect(lastNDays(2, tz, new Date('2025-11-03T05:30:00Z'))).toEqual({ from: '2025-11-01', to: '2025-11-02' });
    expect(lastNDays(2, tz, new Date('2025-11-03T06:00:00Z'))).toEqual({ from: '2025-11-02', to: '2025-11-03' });
    expect(() => lastNDays(0, tz)).toThrow(InvalidParamsError);
  });

  it('converts Dates to org-local days and finds midnights across DST', () => {
    expect(toIsoDay(new Date('2025-07-01T04:00:00Z'), tz)).toBe('2025-06-30');
    expect(toIsoDay('2025-02-28', tz)).toBe('2025-02-28');
    expect(() => toIsoDay('2025-02-29', tz)).toThrow(InvalidParamsError);
    expect(() => toIsoDay('2025-2-1', tz)).toThrow(InvalidParamsError);
    expect(() => toIsoDay(new Date('nope'), tz)).toThrow(InvalidParamsError);
    expect(startOfDayInZone('2025-03-09', tz).toISOString()).toBe('2025-03-09T06:00:00.000Z');
    expect(startOfDayInZone('2025-03-10', tz).toISOString()).toBe('2025-03-10T05:00:00.000Z');
    expect(startOfDayInZone('2025-11-02', tz).toISOString()).toBe('2025-11-02T05:00:00.000Z');
    expect(startOfDayInZone('2025-11-03', tz).toISOString()).toBe('2025-11-03T06:00:00.000Z');
  });
});

describe('query building', () => {
  const decls = {
    customerId: P.id,
    from: P.date,
    to: P.date,
    status: P.oneOf(['sent', 'paid'] as const),
    kind: P.open(['a'] as const),
  };
  it('maps camelCase to snake_case and formats dates in the org timezone', () => {
    expect(
      buildQuery(
        decls,
        {
          customerId: 'c1',
          from: new Date('2025-03-09T05:30:00Z'),
          to: '2025-03-10',
          status: 'sent',
          kind: 'new_kind',
        },
        'America/Chicago',
      ),
    ).toEqual({ customer_id: 'c1', from: '2025-03-08', to: '2025-03-10', status: 'sent', kind: 'new_kind' });
  });
  it('refuses bad values before any request', () => {
    expect(() => buildQuery(decls, { status: 'void' }, 'UTC')).toThrow(/status must be one of sent, paid/);
    expect(() => buildQuery(decls, { api_key: 'x' }, 'UTC')).toThrow(/unknown parameter api_key/);
    expect(() => buildQuery(decls, { from: '2025-02-30' }, 'UTC')).toThrow(InvalidParamsError);
    expect(() => buildQuery(decls, { from: '2025-03-02', to: '2025-03-01' }, 'UTC')).toThrow(/after/);
    expect(() => buildQuery(decls, { customerId: '' }, 'UTC')).toThrow(InvalidParamsError);
  });
});

describe('addresses without the URL global (Apps Script)', () => {
  it('parse like URL for the addresses the client handles', () => {
    const samples = [
      'https://api.example.com/v1',
      'http://127.0.0.1:4010/v1/',
      'https://API.Example.com:443/v1/files/invoice/c123?key_id=key_1&expires=1795356469&signature=0f81',
      'http://[::1]:8080/v1',
      'https://user:secret@api.example.com/v1#frag',
    ];
    for (const href of samples) {
      const expected = new URL(href);
      const got = parseHttpUrl(href);
      for (const field of ['protocol', 'origin', 'href', 'search', 'hash', 'username', 'password'] as const) {
        expect(got[field], `${field} of ${href}`).toBe(expected[field]);
      }
    }
  });

  it('refuses what is not an absolute http(s) address', () => {
    for (const bad of ['api.example.com/v1', 'ftp://example.com/', 'https://', 'not a url']) {
      expect(() => parseHttpUrl(bad)).toThrow(TypeError);
    }
  });
});
