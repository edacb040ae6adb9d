/**
 * `npm run reencrypt` (`npm start -- --reencrypt`): after a key rotation, open the bot's store (DATABASE_URL, else
 * PGlite under LINEN_DATA_DIR) and seal every secret again with the current LINEN_ENCRYPTION_KEY, the old keys
 * given in LINEN_ENCRYPTION_KEYS_OLD. Safe to run again. On PostgreSQL it may run while the bots run (rows are
 * locked as they move); PGlite is one process's database, so stop the bot first.
 */

import { reencryptAll } from '../base/secrets/reencrypt.ts';
import { ConfigError, loadEncryptionConfig, loadStorageConfig } from './config.ts';
import { openServiceDatabase, SEALED_COLUMNS } from './store.ts';

/** Re-encrypts the store; returns one line saying what moved. */
export async function reencryptStore(env: Record<string, string | undefined>): Promise<string> {
  const encryption = loadEncryptionConfig(env);
  if (!encryption) {
    throw new ConfigError('LINEN_ENCRYPTION_KEY is not set: --reencrypt seals every stored secret with it.');
  }
  const db = await openServiceDatabase(loadStorageConfig(env), {});
  try {
    const moved = await reencryptAll(db, encryption.box, SEALED_COLUMNS);
    const total = Object.values(moved).reduce((a, b) => a + b, 0);
    const detail = Object.entries(moved)
      .map(([table, n]) => `${table} ${n}`)
      .join(', ');
    return `re-encrypted ${total} stored secret${total === 1 ? '' : 's'} with key ${encryption.box.currentKeyId} (${detail}); none is sealed with an older key now.`;
  } finally {
    await db.close();
  }
}
