/** The pacing's table: one row per key fingerprint, shared by the replicas on PostgreSQL (versions 30–34). */
import type { Migration } from '../store/migrate.ts';

export const PACING_MIGRATIONS: readonly Migration[] = [
  {
    version: 30,
    name: 'pacing shared by the replicas, a row per key fingerprint',
    sql: `
CREATE TABLE linen_pacing (
  key_fingerprint text PRIMARY KEY,
  sent double precision[] NOT NULL DEFAULT '{}',
  blocked_until double precision NOT NULL DEFAULT 0
);
`,
  },
];
