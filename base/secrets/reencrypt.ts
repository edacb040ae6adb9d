/**
 * Moving every stored secret to the current key after a rotation (`npm start -- --reencrypt`). Each part of the
 * service that seals a column names it (`SealedColumn`); the process passes them all. Rows are read in batches by the key id their value carries, opened
 * with whichever configured key sealed them and sealed again with the current key; running it again finds nothing
 * left to do.
 */
import type { SqlExecutor } from '../store/sql.ts';
import type { SecretBox } from './crypto.ts';

/** A column that holds sealed values, with its table's primary key. */
export interface SealedColumn {
  table: string;
  idColumn: string;
  column: string;
}

const BATCH = 200;

/** Seals again every value not sealed with the current key; returns how many were moved, per table. */
export async function reencryptAll(
  db: SqlExecutor,
  box: SecretBox,
  sealed: readonly SealedColumn[],
): Promise<Record<string, number>> {
  const moved: Record<string, number> = {};
  for (const { table, idColumn, column } of sealed) {
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
