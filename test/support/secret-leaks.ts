/**
 * The check that no key or token in use reaches what the product produces: log lines, Slack payloads, error
 * messages, cell values, cached and stored rows. A secret is looked for as written, base64 (standard and URL
 * alphabets, at every byte alignment) and URL-encoded. The harnesses collect what their suites produced and
 * check it once, when they close.
 */

export interface Produced {
  /** Where the text came from, e.g. `log line`, `Slack post`, `digest_runs row`. */
  source: string;
  text: string;
}

/** The shapes a secret may take in text: as written, URL-encoded, and base64 at each of three byte alignments. */
export function secretForms(secret: string): { form: string; text: string }[] {
  const forms = [
    { form: 'as written', text: secret },
    { form: 'URL-encoded', text: encodeURIComponent(secret) },
  ];
  const bytes = Buffer.from(secret, 'utf8');
  for (let shift = 0; shift < 3; shift++) {
    const b64 = Buffer.concat([Buffer.alloc(shift), bytes]).toString('base64');
    // The characters that depend on the secret's bytes alone, whatever comes before or after it.
    const stable = b64.slice(Math.ceil((4 * shift) / 3), b64.length - 4);
    if (stable.length < 8) continue;
    forms.push({ form: 'base64', text: stable });
    forms.push({ form: 'base64url', text: stable.replace(/\+/g, '-').replace(/\//g, '_') });
  }
  return forms.filter((f, i) => forms.findIndex((g) => g.text === f.text) === i);
}

/** One line per secret found: which secret (masked), in which form, and where. */
export function findLeaks(secrets: Iterable<string>, produced: Iterable<Produced>): string[] {
  const forms = [...new Set(secrets)]
    .filter((s) => s.length >= 8)
    .flatMap((s) => secretForms(s).map((f) => ({ ...f, masked: `${s.slice(0, 4)}…` })));
  const leaks: string[] = [];
  for (const p of produced) {
    for (const f of forms) {
      if (p.text.includes(f.text)) leaks.push(`${f.masked} (${f.form}) in a ${p.source}: ${p.text.slice(0, 120)}`);
    }
  }
  return leaks;
}

/** Throws, listing every leak, when a secret is found in what was produced. */
export function assertNoLeaks(secrets: Iterable<string>, produced: Iterable<Produced>): void {
  const leaks = findLeaks(secrets, produced);
  if (leaks.length) throw new Error(`Secrets leaked into what the product produced:\n${leaks.join('\n')}`);
}

/** Every row of the given tables, one text per row. */
export async function tableRows(
  db: { query(sql: string): Promise<Record<string, unknown>[]> },
  tables: readonly string[],
): Promise<Produced[]> {
  const out: Produced[] = [];
  for (const table of tables) {
    for (const row of await db.query(`SELECT * FROM ${table}`))
      out.push({ source: `${table} row`, text: JSON.stringify(row) });
  }
  return out;
}
