/**
 * Sealing a secret before it is stored: AES-256-GCM with a random IV per value and its auth tag, under a
 * key-encryption key named by an id that is stored with the value (so the operator can rotate keys).
 * Stored form: `v1.<keyId>.<iv>.<tag>.<ciphertext>`, each part base64url.
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

export interface SecretBox {
  seal(plain: string): string;
  open(sealed: string): string;
}

export interface KeyEncryptionKey {
  id: string;
  /** 32 bytes. */
  key: Uint8Array;
}

export function aesGcmSecretBox(current: KeyEncryptionKey, older: readonly KeyEncryptionKey[] = []): SecretBox {
  if (current.key.byteLength !== 32) throw new Error('a key-encryption key must be 32 bytes');
  const byId = new Map([current, ...older].map((k) => [k.id, k.key]));
  return {
    seal(plain) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', current.key, iv);
      const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      const parts = [iv, cipher.getAuthTag(), body].map((b) => b.toString('base64url'));
      return ['v1', current.id, ...parts].join('.');
    },
    open(sealed) {
      const [version, keyId, iv, tag, body] = sealed.split('.');
      const key = keyId === undefined ? undefined : byId.get(keyId);
      if (version !== 'v1' || !key || iv === undefined || tag === undefined || body === undefined)
        throw new Error('a stored secret was sealed with a key this bot does not have');
      const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
    },
  };
}
