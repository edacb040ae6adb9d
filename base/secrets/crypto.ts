/**
 * Secrets at rest: AES-256-GCM under a key-encryption key (`LINEN_ENCRYPTION_KEY`, 32 bytes in base64). A sealed
 * value is one ASCII string, `v1.<key id>.<iv>.<tag>.<ciphertext>` (base64url parts), with a random 12-byte IV
 * per value. The key id (a short hash of the key) says which key sealed it, so keys can be rotated: the current
 * key seals, and it or any old key (`LINEN_ENCRYPTION_KEYS_OLD`) opens.
 */
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

const FORMAT = 'v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;
const KEY_BYTES = 32;

/** A setting that does not hold usable keys; the message names the variable and never shows a key. */
export class EncryptionKeyError extends Error {
  override name = 'EncryptionKeyError';
}

/** A sealed value that none of the configured keys can open (unknown key id, tampered or truncated). */
export class SealedValueError extends Error {
  override name = 'SealedValueError';
}

interface Kek {
  id: string;
  key: Buffer;
}

/** 12 hex digits of SHA-256 over the key: names a key without revealing anything usable about it. */
function keyIdOf(key: Buffer): string {
  return createHash('sha256').update('linen-kek:').update(key).digest('hex').slice(0, 12);
}

function decodeKey(variable: string, text: string): Kek {
  const clean = text.trim();
  const key = /^[A-Za-z0-9+/_-]+={0,2}$/.test(clean) ? Buffer.from(clean, 'base64') : Buffer.alloc(0);
  if (key.length !== KEY_BYTES) {
    throw new EncryptionKeyError(
      `${variable} must be 32 random bytes in base64 (44 characters; make one with: openssl rand -base64 32).`,
    );
  }
  return { id: keyIdOf(key), key };
}

export interface SecretBoxKeys {
  /** The current key (base64): seals every new value. */
  current: string;
  /** Older keys (base64) that still open values sealed before a rotation. */
  old?: readonly string[] | undefined;
}

export class SecretBox {
  readonly #current: Kek;
  readonly #byId = new Map<string, Kek>();

  constructor(keys: SecretBoxKeys) {
    this.#current = decodeKey('LINEN_ENCRYPTION_KEY', keys.current);
    this.#byId.set(this.#current.id, this.#current);
    for (const text of keys.old ?? []) {
      const kek = decodeKey('LINEN_ENCRYPTION_KEYS_OLD', text);
      if (!this.#byId.has(kek.id)) this.#byId.set(kek.id, kek);
    }
  }

  /** The id of the key new values are sealed with. */
  get currentKeyId(): string {
    return this.#current.id;
  }

  seal(plaintext: string): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.#current.key, iv);
    const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    const tag = cipher.getAuthTag();
    return [FORMAT, this.#current.id, iv, tag, body]
      .map((p) => (typeof p === 'string' ? p : p.toString('base64url')))
      .join('.');
  }

  open(sealed: string): string {
    const parts = sealed.split('.');
    if (parts.length !== 5 || parts[0] !== FORMAT) throw new SealedValueError('not a sealed value');
    const [, keyId, iv, tag, body] = parts as [string, string, string, string, string];
    const kek = this.#byId.get(keyId);
    if (!kek) {
      throw new SealedValueError(
        `sealed with key ${keyId}, which is neither LINEN_ENCRYPTION_KEY nor in LINEN_ENCRYPTION_KEYS_OLD`,
      );
    }
    const ivBytes = Buffer.from(iv, 'base64url');
    const tagBytes = Buffer.from(tag, 'base64url');
    if (ivBytes.length !== IV_BYTES || tagBytes.length !== TAG_BYTES) throw new SealedValueError('not a sealed value');
    try {
      const decipher = createDecipheriv('aes-256-gcm', kek.key, ivBytes);
      decipher.setAuthTag(tagBytes);
      return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
    } catch {
      throw new SealedValueError(`a value sealed with key ${keyId} failed its integrity check`);
    }
  }

  /** The id of the key that sealed a value (without opening it). */
  static keyIdOf(sealed: string): string | undefined {
    const parts = sealed.split('.');
    return parts.length === 5 && parts[0] === FORMAT ? parts[1] : undefined;
  }

  /** True when the value was sealed with an older key and should be sealed again with the current one. */
  isStale(sealed: string): boolean {
    return SecretBox.keyIdOf(sealed) !== this.#current.id;
  }
}

/**
 * The box from `LINEN_ENCRYPTION_KEY` and `LINEN_ENCRYPTION_KEYS_OLD` (comma-separated); undefined when no key is
 * set. A malformed key throws an EncryptionKeyError naming its variable.
 */
export function secretBoxFromEnv(env: Record<string, string | undefined>): SecretBox | undefined {
  const current = env.LINEN_ENCRYPTION_KEY?.trim();
  if (!current) {
    if (env.LINEN_ENCRYPTION_KEYS_OLD?.trim()) {
      throw new EncryptionKeyError('LINEN_ENCRYPTION_KEYS_OLD is set without LINEN_ENCRYPTION_KEY, the current key.');
    }
    return undefined;
  }
  const old = (env.LINEN_ENCRYPTION_KEYS_OLD ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  return new SecretBox({ current, old });
}
