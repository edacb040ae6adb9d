/** What a cell shows when something is wrong: one sentence to act on, never a stack trace, never the key. */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { coldCache, type Harness, KEYS, startHarness } from '../support/apps-script-harness.ts';

let h: Harness;
const errors: string[] = [];
const FROM = '2026-10-01';
const TO = '2026-10-31';

function fails(name: string, ...args: unknown[]): string {
  const r = h.cell(name, ...args);
  expect(r.error, `${name} should fail`).toBeTypeOf('string');
  errors.push(r.error!);
  return r.error!;
}

beforeAll(async () => {
  h = await startHarness();
});
afterEach(async () => {
  h.setKey(KEYS.all);
  h.setDocProp('LINEN_BASE_URL', h.sb.baseUrl);
  await h.sb.resetFaults();
});
afterAll(async () => {
  // Every message seen: one line, no stack, no key, ends like a sentence.
  for (const e of errors) {
    expect(e).not.toMatch(/\n|\bat \S+ \(|lk_live_/);
    expect(e).toMatch(/[.)]$/);
  }
  for (const f of h.world.fetches) {
    expect(f.url).not.toMatch(/lk_live_/);
  }
  await h?.close();
});

describe('arguments', () => {
  it('a missing key says who sets one and where', () => {
    h.setKey(null);
    expect(fails('LINEN_FILLRATE', 'Mercy General Hospital', FROM, TO)).toBe(
      'No Linen API key is set for this spreadsheet: its owner sets one with Extensions > Linen Connect > Set API key...',
    );
  });

  it('bad, missing and reversed dates name the argument', () => {
    expect(fails('LINEN_FILLRATE', 'Mercy General Hospital', '2026-13-01', TO)).toBe(
      'from must be a date or a day written YYYY-MM-DD, not "2026-13-01".',
    );
    expect(fails('LINEN_FILLRATE', 'Mercy General Hospital', FROM)).toBe('to is required (a date or YYYY-MM-DD).');
    expect(fails('LINEN_DELIVERIES', 'Mercy General Hospital', TO, FROM)).toBe(
      'from (2026-10-31) is after to (2026-10-01).',
    );
    expect(fails('LINEN_INVOICES', '', 'last week')).toMatch(/^from must be a date/);
  });

  it('a part of one name is that customer; an ambiguous part lists the matches; an unknown name lists close ones', () => {
    expect(fails('LINEN_FILLRATE', 'Mercy', FROM, TO)).toMatch(
      /^"Mercy" matches several customers: Mercy General Hospital \(c\w+\); Mercy Health \(c\w+\); Mercy West Surgery Center \(c\w+\)\. Give the full name or the id\.$/,
    );
    expect(fails('LINEN_FILLRATE', 'Mercy Genral Hospital', FROM, TO)).toMatch(
      /^No customer named "Mercy Genral Hospital" is visible to this key\. Close matches: Mercy General Hospital \(c\w+\)/,
    );
    expect(fails('LINEN_FILLRATE', 'Nowhere Clinic', FROM, TO)).toBe(
      'No customer named "Nowhere Clinic" is visible to this key.',
    );
    expect(fails('LINEN_DEPARTMENTS')).toBe('Give a customer id or name.');
  });

  it("an ambiguous department name asks for the customer; an unknown one lists the customer's departments", () => {
    expect(fails('LINEN_PAR', '', 'ICU')).toBe(
      'Department "ICU" exists at Mercy General Hospital, St. Luke\'s Medical Center: give the customer or the id.',
    );
    expect(fails('LINEN_FILLRATE', 'Mercy General Hospital', FROM, TO, 'Cardiology')).toMatch(
      /^No department "Cardiology" is visible to this key; Mercy General Hospital has Emergency, .*ICU/,
    );
    expect(fails('LINEN_FILLRATE', 'Mercy General Hospital', FROM, TO, '', 'Golf Umbrella')).toBe(
      'No item "Golf Umbrella" is visible to this key.',
    );
  });

  it('a customer id the key does not see, a group given by id, and an unknown department under an id', () => {
    const group = h.sb.data.customers.find((c) => c.is_group)!;
    const mercy = h.sb.data.customers.find((c) => c.name === 'Mercy General Hospital')!;
    expect(fails('LINEN_FILLRATE', 'cnotacustomer0000000000001', FROM, TO)).toBe(
      'No customer named "cnotacustomer0000000000001" is visible to this key.',
    );
    expect(fails('LINEN_FILLRATE', group.id, FROM, TO)).toMatch(
      new RegExp(`^${group.name} is a group and has no deliveries of its own from ${FROM} to ${TO}; ask for one of`),
    );
    expect(fails('LINEN_FILLRATE', mercy.id, FROM, TO, 'Cardiology')).toMatch(
      /^No department "Cardiology" is visible to this key; Mercy General Hospital has Emergency, .*ICU/,
    );
    // Another key's customer is not this key's, whichever way it is written.
    h.setKey(KEYS.hotel);
    expect(fails('LINEN_FILLRATE', mercy.id, FROM, TO)).toBe(`No customer named "${mercy.id}" is visible to this key.`);
  });

  it('enum values, ranges and extra arguments', () => {
    expect(fails('LINEN_INVOICES', '', '', '', 'open')).toBe(
      'status must be one of sent, partially_paid, paid, not "open".',
    );
    expect(fails('LINEN_FILLRATE', [['a'], ['b']], FROM, TO)).toBe('customer must be a single value, not a range.');
    expect(fails('LINEN_BALANCE', 'Mercy General Hospital', 'extra')).toBe(
      'Too many arguments: LINEN_BALANCE(customer).',
    );
  });

  it('an unknown or malformed ticket number', () => {
    expect(fails('LINEN_TICKET', 'TKT-26-99999')).toBe('No ticket TKT-26-99999 is visible to this key.');
    expect(fails('LINEN_TICKET', 'ticket 5')).toBe('"ticket 5" is not a ticket number like TKT-26-00417.');
    expect(fails('LINEN_TICKET')).toBe('ticket_number is required, e.g. "TKT-26-00417".');
  });
});

describe('keys and scopes', () => {
  it('a key without a scope says which access is missing', () => {
    h.setKey(KEYS.mercyOps);
    expect(fails('LINEN_INVOICES', 'Mercy General Hospital')).toBe(
      'This key has no accounting access: ask your linen provider for a key that includes it.',
    );
    h.setKey(KEYS.mercyBilling);
    expect(fails('LINEN_FILLRATE', 'Mercy General Hospital', FROM, TO)).toBe(
      'This key has no processing (deliveries, manifests, inventory) access: ask your linen provider for a key that includes it.',
    );
    h.setKey(KEYS.hotel);
    expect(fails('LINEN_FILLRATE', 'Mercy General Hospital', FROM, TO)).toMatch(
      /^No customer named "Mercy General Hospital" is visible to this key\./,
    );
  });

  it('a revoked key', () => {
    h.setKey(KEYS.revoked);
    expect(fails('LINEN_CUSTOMERS')).toBe(
      'The Linen API rejected the API key (revoked or mistyped): set a valid one with Extensions > Linen Connect > Set API key...',
    );
  });

  it('a hundred cells failing on a missing scope cost one request', () => {
    h.setKey(KEYS.mercyOps);
    coldCache(h);
    h.takeFetches();
    for (let i = 0; i < 100; i++) fails('LINEN_BALANCE', '');
    expect(h.takeFetches().length).toBe(1);
  });
});

describe('outages', () => {
  it('an API that cannot be reached', () => {
    h.setDocProp('LINEN_BASE_URL', 'http://127.0.0.1:9/v1');
    coldCache(h);
    expect(fails('LINEN_CUSTOMERS')).toBe('Could not reach the Linen API; check the network and try again.');
  });

  it('a 500 is retried; a lasting one is reported with its request id', async () => {
    coldCache(h);
    await h.sb.enqueue({ kind: '500', count: 1 });
    h.takeFetches();
    expect((h.cell('LINEN_CUSTOMERS').value as unknown[][]).length).toBe(h.sb.data.customers.length + 1);
    expect(h.takeFetches().map((f) => f.status)).toEqual([500, 200]);
    coldCache(h);
    await h.sb.enqueue({ kind: '500', count: 20 });
    expect(fails('LINEN_CUSTOMERS')).toMatch(
      /^The Linen API had an internal error \(request req_\w+\); quote it to support\.$/,
    );
  });

  it('a 429 waits for Retry-After and answers', async () => {
    coldCache(h);
    await h.sb.enqueue({ kind: '429', count: 1 });
    h.takeFetches();
    const r = h.cell('LINEN_CUSTOMERS');
    expect(r.error).toBeUndefined();
    expect(h.takeFetches().map((f) => f.status)).toEqual([429, 200]);
  });

  it('the key goes only in the Authorization header', () => {
    coldCache(h);
    h.takeFetches();
    h.cell('LINEN_CUSTOMERS');
    const [f] = h.takeFetches();
    expect(f!.headers.authorization).toBe(`Bearer ${KEYS.all}`);
    expect(f!.url).not.toContain(KEYS.all);
  });
});
