/**
 * One client of `measureSharedCeiling`, in its own process: walks the manifests with the key's pacing kept in
 * PostgreSQL (DATABASE_URL, schema CEILING_SCHEMA), as a bot replica would, then prints `DONE <rows>`.
 */

import { keyPacers } from '../base/pacing/key-pacers.ts';
import { openPg } from '../base/store/pg.ts';
import { migrateServiceDatabase } from '../service/store.ts';
import { createLinenClient } from '../shared/node.ts';

const env = process.env;
const db = await openPg({ connectionString: env.DATABASE_URL!, schema: env.CEILING_SCHEMA!, max: 2 });
await migrateServiceDatabase(db);
const apiKey = env.LINEN_API_KEY!;
const pacers = keyPacers({ db, limit: Number(env.CEILING_LIMIT), windowMs: Number(env.CEILING_WINDOW_MS) });
const client = createLinenClient({
  apiKey,
  baseUrl: env.LINEN_BASE_URL!,
  timeZone: 'America/Chicago',
  pacing: pacers.for(apiKey),
});
let rows = 0;
for await (const _ of client.manifests.list({ limit: Number(env.CEILING_PAGE_SIZE) })) rows++;
await client.close();
await db.close();
process.stdout.write(`DONE ${rows}\n`);
