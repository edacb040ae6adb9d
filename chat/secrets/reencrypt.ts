/**
 * Moving every stored secret to the current key after a rotation (`npm start -- --reencrypt`). A table with a
 * sealed column adds itself to SEALED_COLUMNS. Rows are read in batches by the key id their value carries, opened
 * with whichever configured key sealed them and sealed again with the current key; running it again finds nothing
 * left to do.
 */
import type { SqlExecutor } from '../digests/storage/sql.ts';
import type { SecretBox } from './crypto.ts';

/** Every column that holds sealed values, with its table's primary key. */
export const SEALED_COLUMNS: readonly { table: string; idColumn: string; column: string }[] = [
  { table: 'slack_installations', idColumn: 'id', column: 'installation_sealed' },
  { table: 'workspace_keys', idColumn: 'id', column: 'key_sealed' },
];

const BATCH = 200;

/** Seals again every value not sealed with the current key; returns how many were moved, per table. */
export async function reencryptAll(db: SqlExecutor, box: SecretBox): Promise<Record<string, number>> {
  const moved: Record<string, number> = {};
  for (const { table, idColumn, column } of SEALED_COLUMNS) {
    moved[table] = 0;
    for (;;) {
      const done = await db.transaction(async (tx) => {
        // split_part(value, '.', 2) is the key id of a `v1.<key id>.…` value.
        const rows = await tx.query<{ id: string; sealed: string }>(
          `SELECT ${idColumn} AS id, ${column} AS sealed FROM ${table}
           WHERE ${column} IS NOT NULL AND split_part(${column}, '.', 2) <> $1 LIMIT ${BATCH} FOR UPDATE`,
          [box.currentKeyId],
        );
        for (const row of rows) {
          await tx.query(`UPDATE ${table} SET ${column} = $1 WHERE ${idColumn} = $2`, [
            box.seal(box.open(row.sealed)),
            row.id,
          ]);
        }
        return rows.length;
      });
      moved[table] += done;
      if (done < BATCH) break;
    }
  }
  return moved;
}
