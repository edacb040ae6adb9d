/**
 * Alerts on Slack across a restart mid-delivery and mid-check, a revoked key and a channel the bot left, on PGlite
 * and on PostgreSQL (test/support/alert-lifecycle.ts says what is checked).
 */
import { startSlackAlerts } from '../../support/alert-chat.ts';
import { describeAlertLifecycle } from '../../support/alert-lifecycle.ts';
import { drivers } from '../../support/digest-db.ts';

for (const driver of drivers)
  describeAlertLifecycle(`alerts on Slack across restarts and failures (${driver})`, () =>
    startSlackAlerts(driver, { viaProxy: true }),
  );
