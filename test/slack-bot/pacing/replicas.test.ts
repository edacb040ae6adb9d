/**
 * Three bot replicas in separate processes share one key's pacing through PostgreSQL, under a limit scaled from
 * 120 a minute to 30 per 6 s: a burst of more commands than the key's budget serves within a command's 10 s
 * budget never meets a 429 nor goes over the limit, and every command is answered, with its fill rate or the
 * "busy" sentence. Every command asks about its own customer and window, so that each costs a request of its own:
 * the bot would answer a burst of one same command with one request per replica.
 *
 * The window stays longer than a request may be in flight (the interactive client gives up on one after 5 s), as
 * at the real limit of 60 s: a slot is dated by its request's send until the answer dates it again, so under a
 * shorter window a request slowed by a busy machine could reach the API after its slot was taken again.
 */
import { describe, expect, it } from 'vitest';
import { PG_URL } from '../../support/digest-db.ts';
import { runSharedPacing } from '../../support/pacing-replicas.ts';

describe.skipIf(!PG_URL)('pacing shared by three replicas through PostgreSQL', () => {
  it('answers every command of a burst of 90 different ones with its fill rate or the busy sentence, and no request with 429', async () => {
    const run = await runSharedPacing({ databaseUrl: PG_URL!, replicas: 3, commands: 90, limit: 30, windowMs: 6_000 });
    expect(run.questions).toBe(90);
    expect(run.rateLimited).toBe(0);
    expect(run.perWindow).toBeLessThanOrEqual(30);
    expect(run.silent).toBe(0);
    expect(run.otherAnswers).toEqual([]);
    expect(run.dataAnswers + run.busyAnswers).toBe(90);
    // The customers were listed once per replica; each fill rate given cost a deliveries request of its own (one
    // page), none served by another command's request or a kept answer.
    expect(Object.keys(run.requestsByPath).sort()).toEqual(['/customers', '/deliveries/daily']);
    expect(run.requestsByPath['/customers']).toBe(3);
    expect(run.requestsByPath['/deliveries/daily']).toBeGreaterThanOrEqual(run.dataAnswers);
    expect(run.requestsByPath['/deliveries/daily']).toBeLessThanOrEqual(90);
    // More fill rates than one window holds: the replicas shared the key's budget over two windows (about 57: 30
    // slots a window, 3 of them for the customers); and more commands than that budget serves within a command's
    // budget: the rest were told the API is busy.
    expect(run.dataAnswers).toBeGreaterThan(30);
    expect(run.busyAnswers).toBeGreaterThan(0);
  }, 180_000);
});
