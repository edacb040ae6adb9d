/**
 * Three bot replicas in separate processes share one key's pacing through PostgreSQL: a burst of commands spread
 * across them never meets a 429, under a limit scaled from 120 a minute to 30 per 3 s.
 */
import { describe, expect, it } from 'vitest';
import { PG_URL } from '../../support/digest-db.ts';
import { runSharedPacing } from '../../support/pacing-replicas.ts';

describe.skipIf(!PG_URL)('pacing shared by three replicas through PostgreSQL', () => {
  it('answers a burst of 90 commands spread over three replicas with no request answered 429', async () => {
    const run = await runSharedPacing({ databaseUrl: PG_URL!, replicas: 3, commands: 90, limit: 30, windowMs: 3_000 });
    expect(run.answered).toBe(90);
    expect(run.signalAnswers).toBe(90);
    expect(run.rateLimited).toBe(0);
    // More requests than one window holds, so the replicas had to share the budget to avoid a 429.
    expect(run.requests).toBeGreaterThan(3 * 30);
  }, 180_000);
});
