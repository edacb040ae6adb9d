/**
 * Alerts on Teams through the real service: `@Linen alert …` in a channel, the sandbox's data changed under it, the
 * alert worker on a manual clock posting Adaptive Cards to the fake Bot Connector; on PGlite and on PostgreSQL
 * (test/support/alert-scenarios.ts says what is checked), and across restarts, a revoked key and a conversation the
 * bot was removed from (test/support/alert-lifecycle.ts). Teams has no way to name another channel in a message: an
 * alert posts where it is set, or to the person with `dm`.
 */
import { expect, it } from 'vitest';
import { startTeamsAlerts } from '../support/alert-chat.ts';
import { describeAlertLifecycle } from '../support/alert-lifecycle.ts';
import { alertRows, describeAlerts, plain } from '../support/alert-scenarios.ts';
import { drivers } from '../support/digest-db.ts';

for (const driver of drivers)
  describeAlerts(
    `alerts on Teams (${driver})`,
    () => startTeamsAlerts(driver),
    (chat) => {
      it('another channel named in the command: one sentence saying where alerts go in Teams, nothing saved', async () => {
        const before = await alertRows(chat());
        expect(plain(await chat().say('alert signal #finance')).trim()).toMatch(
          /^In Teams a digest or an alert goes to the channel or chat where you set it up: type the command there \(after @Linen in a channel\)\./,
        );
        expect(await alertRows(chat())).toEqual(before);
      });
    },
  );

for (const driver of drivers)
  describeAlertLifecycle(`alerts on Teams across restarts and failures (${driver})`, () =>
    startTeamsAlerts(driver, { viaProxy: true }),
  );
