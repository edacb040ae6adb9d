/**
 * `app_home_opened`: the person opened Linen's Home tab. Bolt acknowledges an event before any listener runs; the
 * home is built and published after, once every request received is acknowledged (slack-bot/home.ts). Opening the
 * Messages tab does nothing.
 */
import type { App } from '@slack/bolt';
import { yieldToPendingAcks } from '../../../base/pending-acks.ts';
import { HOME_COMMANDS } from '../../../chat/home/home-words.ts';
import { publishHome } from '../../home.ts';
import type { BotDeps } from '../index.ts';

export function register(app: App, deps: BotDeps): void {
  app.event('app_home_opened', async ({ event, body, context, client }) => {
    if (event.tab !== 'home') return;
    await yieldToPendingAcks();
    const teamId = body.team_id ?? context.teamId ?? null;
    await publishHome(
      { teamId, userId: event.user, channelId: event.channel ?? '', slack: client },
      HOME_COMMANDS.show,
      deps,
      'opened',
    );
  });
}

export default { register };
