/** The digest store over the service's database (opened and migrated by the process: `service/store.ts`). */
import type { SqlExecutor } from '../../../base/store/sql.ts';
import { SqlDigestStore } from './store.ts';
import type { DigestStore } from './types.ts';

export type * from './types.ts';

/** The digests kept in `db` (already migrated). */
export function digestStoreOver(db: SqlExecutor): DigestStore {
  return new SqlDigestStore(db);
}
