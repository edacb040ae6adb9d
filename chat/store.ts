/**
 * What the chat core keeps in the service's database: the workspace tables (installations, connections, Teams
 * conversations and admins), the digest tables, the alert tables and what each person follows on their home, their
 * migrations and their sealed columns. The process applies them beside the base's own (`service/store.ts`).
 */
import type { SealedColumn } from '../base/secrets/reencrypt.ts';
import type { Migration } from '../base/store/migrate.ts';
import { ALERT_MIGRATIONS } from './alerts/storage/migrations.ts';
import { WORKSPACE_MIGRATIONS, WORKSPACE_SEALED_COLUMNS } from './connections/migrations.ts';
import { DIGEST_MIGRATIONS } from './digests/storage/migrations.ts';
import { HOME_MIGRATIONS } from './home/migrations.ts';

export const CHAT_MIGRATIONS: readonly Migration[] = [
  ...DIGEST_MIGRATIONS,
  ...WORKSPACE_MIGRATIONS,
  ...ALERT_MIGRATIONS,
  ...HOME_MIGRATIONS,
];

export const CHAT_SEALED_COLUMNS: readonly SealedColumn[] = WORKSPACE_SEALED_COLUMNS;
