/**
 * Payloads the bot never asked for, acknowledged and logged at info, nothing else: payloads it cannot route (see
 * unroutable.ts), clicks on action_ids it did not write, view submissions of views it did not open (it opens only
 * the `linen_connect` modal) and closings, and shortcuts (its manifest declares none). Acknowledging them keeps
 * Bolt from answering 404 after 3 s with an error line.
 */
import type { App } from '@slack/bolt';
import { ACTION } from '../../blocks/render.ts';
import { CONNECT_CALLBACK } from '../../connect-form.ts';
import type { BotDeps } from '../index.ts';
import { ignoreUnroutable } from '../unroutable.ts';

/**
 * Every action_id the bot writes: `linen_share`, `linen_pdf:<n>`, `linen_rerun:<n>`, `linen_refresh:<n>` and
 * `linen_menu:<command>`. Anything else is not ours.
 */
const NOT_OURS = new RegExp(
  `^(?!(?:${ACTION.share}$|${ACTION.pdf}:|${ACTION.rerun}:|${ACTION.refresh}:|${ACTION.menu}:))`,
);

/** The one view the bot opens and answers the submission of: the connect modal. */
const NOT_OUR_VIEW = new RegExp(`^(?!${CONNECT_CALLBACK}$)`);

export function register(app: App, deps: BotDeps): void {
  // A payload no listener could match (a click with no action, no callback_id) ends here, before matching.
  app.use(ignoreUnroutable(deps.logger));

  app.action(NOT_OURS, async ({ ack, action }) => {
    await ack();
    const id = (action as { action_id?: unknown }).action_id;
    deps.logger.info(`ignored a click: action ${String(id)} is not one of the bot's`);
  });

  for (const type of ['view_submission', 'view_closed'] as const) {
    const callbackId = type === 'view_submission' ? NOT_OUR_VIEW : /.*/;
    app.view({ type, callback_id: callbackId }, async ({ ack, view }) => {
      await ack();
      deps.logger.info(`ignored a ${type}: view ${view.callback_id} is not one the bot opened`);
    });
  }

  app.shortcut(/.*/, async ({ ack, shortcut }) => {
    await ack();
    deps.logger.info(`ignored a shortcut: ${shortcut.callback_id} is not one the bot declares`);
  });
}

export default { register };
