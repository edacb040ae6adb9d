/** The digest store over the service's database (opened and migrated by the process: `service/store.ts`). */
import type { SqlExecutor } from '../../../base/store/sql.ts';
import { DIGEST_KINDS } from '../kinds/index.ts';
import { SqlDigestStore } from './store.ts';
import type { DigestStore } from './types.ts';

export type * from './types.ts';

/** The digests kept in `db` (already migrated), of the kinds named in `kinds` (default: the service's). */
export function digestStoreOver(db: SqlExecutor, kinds: readonly string[] = DIGEST_KINDS.names): DigestStore {
  return new SqlDigestStore(db, kinds);
}
