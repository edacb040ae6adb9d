import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { EncryptionKeyError, SealedValueError, SecretBox, secretBoxFromEnv } from '../../../base/secrets/crypto.ts';

const newKey = () => randomBytes(32).toString('base64');

describe('SecretBox', () => {
  it('opens what it sealed, and the sealed text shows nothing of the secret', () => {
    const box = new SecretBox({ current: newKey() });
    const secret = 'xoxb-1111-2222-averysecrettoken';
    const sealed = box.seal(secret);
    expect(box.open(sealed)).toBe(secret);
    for (const form of [secret, Buffer.from(secret).toString('base64'), Buffer.from(secret).toString('hex')])
      expect(sealed).not.toContain(form);
  });

  it('uses a fresh IV for every value: the same secret sealed twice differs', () => {
    const box = new SecretBox({ current: newKey() });
    expect(box.seal('same')).not.toBe(box.seal('same'));
  });

  it('records the id of the key that sealed the value', () => {
    const box = new SecretBox({ current: newKey() });
    expect(SecretBox.keyIdOf(box.seal('x'))).toBe(box.currentKeyId);
    expect(box.currentKeyId).toMatch(/^[0-9a-f]{12}$/);
  });

  it('refuses a tampered value', () => {
    const box = new SecretBox({ current: newKey() });
    const parts = box.seal('secret value').split('.');
    const body = Buffer.from(parts[4]!, 'base64url');
    body[0]! ^= 1;
    parts[4] = body.toString('base64url');
    expect(() => box.open(parts.join('.'))).toThrow(SealedValueError);
  });

  it('after a rotation, an old key still opens old values and the new key seals', () => {
    const oldKey = newKey();
    const before = new SecretBox({ current: oldKey });
    const sealedBefore = before.seal('kept secret');
    const after = new SecretBox({ current: newKey(), old: [oldKey] });
    expect(after.open(sealedBefore)).toBe('kept secret');
    expect(after.isStale(sealedBefore)).toBe(true);
    const resealed = after.seal(after.open(sealedBefore));
    expect(after.isStale(resealed)).toBe(false);
    expect(() => before.open(resealed)).toThrow(SealedValueError);
  });

  it('a value sealed with a key no longer configured cannot be opened, and the error names the key id only', () => {
    const lost = new SecretBox({ current: newKey() });
    const sealed = lost.seal('gone');
    const box = new SecretBox({ current: newKey() });
    expect(() => box.open(sealed)).toThrow(/sealed with key [0-9a-f]{12}, which is neither/);
  });
});

describe('secretBoxFromEnv', () => {
  it('is undefined without LINEN_ENCRYPTION_KEY', () => {
    expect(secretBoxFromEnv({})).toBeUndefined();
  });

  it.each([
    ['too short', Buffer.alloc(16).toString('base64')],
    ['not base64', 'this is not a key at all, not even close!!!'],
  ])('refuses a key that is %s, naming the variable and not the key', (_what, key) => {
    let err: unknown;
    try {
      secretBoxFromEnv({ LINEN_ENCRYPTION_KEY: key });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(EncryptionKeyError);
    expect((err as Error).message).toMatch(/^LINEN_ENCRYPTION_KEY must be 32 random bytes in base64/);
    expect((err as Error).message).not.toContain(key);
  });

  it('refuses a malformed old key, naming LINEN_ENCRYPTION_KEYS_OLD', () => {
    expect(() => secretBoxFromEnv({ LINEN_ENCRYPTION_KEY: newKey(), LINEN_ENCRYPTION_KEYS_OLD: 'abc' })).toThrow(
      /^LINEN_ENCRYPTION_KEYS_OLD must be/,
    );
  });

  it('reads old keys separated by commas', () => {
    const a = newKey();
    const b = newKey();
    const sealedA = new SecretBox({ current: a }).seal('a');
    const sealedB = new SecretBox({ current: b }).seal('b');
    const box = secretBoxFromEnv({ LINEN_ENCRYPTION_KEY: newKey(), LINEN_ENCRYPTION_KEYS_OLD: `${a}, ${b}` })!;
    expect([box.open(sealedA), box.open(sealedB)]).toEqual(['a', 'b']);
  });
});
