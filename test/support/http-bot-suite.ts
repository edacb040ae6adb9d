/**
 * A suite's bot over HTTP: a harness and one bot without the digest worker, started before the suite's tests and
 * closed after them. The returned object is filled in by the time a test runs, not when the file is loaded.
 */
import { afterAll, beforeAll } from 'vitest';
import { type BotUnderTest, type Harness, startHarness } from './slack-harness.ts';

export interface HttpBotSuite {
  h: Harness;
  bot: BotUnderTest;
}

export function useHttpBot(): HttpBotSuite {
  const suite = {} as HttpBotSuite;
  beforeAll(async () => {
    suite.h = await startHarness();
    suite.bot = await suite.h.startBotWith({}, { start: { digests: { worker: false } } });
  }, 120_000);
  afterAll(async () => {
    await suite.h?.close();
  });
  return suite;
}
