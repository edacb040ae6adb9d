/** The check the harnesses run on everything the suites produced: it finds a key however it is written. */
import { describe, expect, it } from 'vitest';
import { findLeaks } from '../support/secret-leaks.ts';

const KEY = 'lk_live_demo_all_access';
const found = (text: string) => findLeaks([KEY], [{ source: 'log line', text }]);

describe('the secret leak check', () => {
  it('finds a key as written and URL-encoded', () => {
    expect(found(`GET /v1/customers?api_key=${KEY}`)).toHaveLength(1);
    expect(findLeaks(['lk_live_a/b+c_key'], [{ source: 'log line', text: 'key=lk_live_a%2Fb%2Bc_key' }])).toEqual([
      'lk_l… (URL-encoded) in a log line: key=lk_live_a%2Fb%2Bc_key',
    ]);
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
