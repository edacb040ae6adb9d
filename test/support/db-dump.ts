/**
 * The whole database as text, as an attacker with a copy of it would see it: every row of every table of the
 * current schema (PGlite or a PostgreSQL test schema), each cast to text. And the encodings a secret could hide in.
 */
import { expect } from 'vitest';
import type { SqlExecutor } from '../../base/store/sql.ts';

export async function dumpDatabase(db: SqlExecutor): Promise<string> {
  const tables = await db.query<{ table_name: string }>(
    `SELECT table_name FROM information_schema.tables
     WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' ORDER BY table_name`,
  );
  const out: string[] = [];
  for (const { table_name } of tables) {
    const rows = await db.query<{ row: string }>(`SELECT t::text AS row FROM "${table_name}" t`);
    out.push(`-- ${table_name}`, ...rows.map((r) => r.row));
  }
  return out.join('\n');
}

/** Base64 of the secret at each of the three byte alignments it may have inside a longer encoded value. */
function base64Forms(secret: Buffer, encoding: 'base64' | 'base64url'): string[] {
  const forms: string[] = [];
  for (let shift = 0; shift < 3; shift++) {
    const encoded = Buffer.concat([Buffer.alloc(shift), secret])
      .toString(encoding)
      .replace(/=+$/, '');
    // Drop the first group (it mixes in the prefix) when shifted, and the last one (it mixes in what follows).
    forms.push(encoded.slice(shift === 0 ? 0 : 4, encoded.length - 4));
  }
  return forms;
}

/** Every form of the secret to look for: plain, base64 and base64url (any alignment), hex, URL-encoded. */
export function encodingsOf(secret: string): string[] {
  const bytes = Buffer.from(secret, 'utf8');
  return [
    secret,
    ...base64Forms(bytes, 'base64'),
    ...base64Forms(bytes, 'base64url'),
    bytes.toString('hex'),
    bytes.toString('hex').toUpperCase(),
    encodeURIComponent(secret),
  ];
}

/** The secrets (by their index in `secrets`) found in the text in any encoding. */
export function secretsIn(text: string, secrets: readonly string[]): string[] {
  const found: string[] = [];
  for (const s of secrets) {
    const form = encodingsOf(s).find((f) => f.length >= 8 && text.includes(f));
    if (form !== undefined) found.push(`${s.slice(0, 5)}… as "${form.slice(0, 12)}…"`);
  }
  return found;
}

/**
 * Dumps the database and expects it to hold each of `holds` (the rows the secrets were written to, so the check
 * is not made on an empty dump) and none of `secrets` in any encoding.
 */
export async function expectNoSecretInDump(
  db: SqlExecutor,
  secrets: readonly string[],
  holds: readonly (string | RegExp)[] = [],
): Promise<void> {
  const dump = await dumpDatabase(db);
  for (const h of holds) expect(dump).toMatch(h);
  expect(secretsIn(dump, secrets)).toEqual([]);
}
