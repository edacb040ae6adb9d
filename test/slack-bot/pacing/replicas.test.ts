/**
 * Three bot replicas in separate processes share one key's pacing through PostgreSQL, under a limit scaled from
 * 120 a minute to 30 per 3 s: a burst of more commands than the key's budget serves within a command's 10 s
 * budget never meets a 429, and every command is answered, with the signals or the "busy" sentence.
 */
import { describe, expect, it } from 'vitest';
import { PG_URL } from '../../support/digest-db.ts';
import { runSharedPacing } from '../../support/pacing-replicas.ts';

describe.skipIf(!PG_URL)('pacing shared by three replicas through PostgreSQL', () => {
  it('answers every command of a burst of 150 with the signals or the busy sentence, and no request with 429', async () => {
    const run = await runSharedPacing({ databaseUrl: PG_URL!, replicas: 3, commands: 150, limit: 30, windowMs: 3_000 });
    expect(run.rateLimited).toBe(0);
    expect(run.silent).toBe(0);
    expect(run.otherAnswers).toEqual([]);
    expect(run.signalAnswers + run.busyAnswers).toBe(150);
    // More signals than one window holds: the replicas shared the key's budget over several windows.
    expect(run.signalAnswers).toBeGreaterThan(30);
  }, 180_000);
});
