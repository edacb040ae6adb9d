/**
 * The stores a benchmark of the bot's store is run on: the embedded one (PGlite), and PostgreSQL when a server is
 * named (BENCH_DATABASE_URL or TEST_DATABASE_URL), each run in a fresh schema dropped afterwards.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';

export type StoreDriver = readonly ['pglite', undefined] | readonly ['pg', string];

export function benchStores(): StoreDriver[] {
  const url = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
  return [['pglite', undefined], ...(url ? [['pg', url] as const] : [])];
}

export const storeName = (driver: StoreDriver[0]) => (driver === 'pg' ? 'PostgreSQL' : 'PGlite');

/** A schema name no other run uses (runs of several people share the server). */
export const freshSchema = (prefix: string) => `${prefix}_${randomBytes(4).toString('hex')}`;

export async function dropSchema(url: string, schema: string): Promise<void> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    await c.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  } finally {
    await c.end();
  }
}
