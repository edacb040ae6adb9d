/**
 * The service's database opened as the service opens it (migrated), with its digest store: what the suites that
 * store subscriptions directly need, and `close()` to drain the store and close the database.
 */
import type { DatabaseLocation } from '../../base/store/database.ts';
import type { SqlExecutor } from '../../base/store/sql.ts';
import { type DigestStore, digestStoreOver } from '../../chat/digests/storage/index.ts';
import { openServiceDatabase } from '../../service/store.ts';

export type ServiceStore = DigestStore & { executor: SqlExecutor; close(): Promise<void> };

/** The digest store over `db` (migrated), with the database and a `close()` that closes it. */
export function serviceStoreOver(db: SqlExecutor): ServiceStore {
  const store = digestStoreOver(db);
  return Object.assign(store, {
    executor: db,
    async close() {
      await store.drain();
      await db.close();
    },
  });
}

export async function openServiceStore(location: DatabaseLocation): Promise<ServiceStore> {
  return serviceStoreOver(await openServiceDatabase(location, {}));
}
