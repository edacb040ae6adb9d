/** The check the harnesses run on everything the suites produced: it finds a key however it is written. */
import { describe, expect, it } from 'vitest';
import { findLeaks } from '../support/secret-leaks.ts';

const KEY = 'lk_live_demo_all_access';
const found = (text: string) => findLeaks([KEY], [{ source: 'log line', text }]);

describe('the secret leak check', () => {
  it('finds a key as written and URL-encoded', () => {
    expect(found(`GET /v1/customers?api_key=${KEY}`)).toHaveLength(1);
    expect(
      findLeaks(['xoxb-1111-2222-a/b+c'], [{ source: 'log line', text: 'token=xoxb-1111-2222-a%2Fb%2Bc' }]),
    ).toEqual(['xoxb… (URL-encoded) in a log line: token=xoxb-1111-2222-a%2Fb%2Bc']);
  });

  it('finds a key base64-encoded at any position inside a longer value', () => {
    for (const prefix of ['', 'a', 'ab', 'Basic user:']) {
      const encoded = Buffer.from(`${prefix}${KEY}:x`).toString('base64');
      expect(found(`authorization: ${encoded}`), prefix).not.toEqual([]);
      expect(found(Buffer.from(`${prefix}${KEY}`).toString('base64url')), prefix).not.toEqual([]);
    }
  });

  it('finds nothing in text that only resembles a key', () => {
    expect(found('lk_live_demo_… was rejected (request req_123)')).toEqual([]);
    expect(found(Buffer.from('lk_live_demo_other_key').toString('base64'))).toEqual([]);
  });
});
