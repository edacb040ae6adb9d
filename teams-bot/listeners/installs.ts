/**
 * The app installed in or removed from a team, a group chat or a 1:1 chat (`installationUpdate`, and the
 * `conversationUpdate` of the bot added or removed). An install records the conversation and its tenant, and greets
 * the person in a 1:1 chat with what Linen can do. A removal deletes, in one transaction, the digest subscriptions
 * of the conversations it covers and their records, and everything kept for the tenant once none is left.
 */
import type { App } from '@microsoft/teams.apps';
import { COMMAND_REGISTRY } from '../../chat/commands/index.ts';
import { note } from '../../chat/content/document.ts';
import { commandWords, r } from '../../chat/content/rich.ts';
import { helpView } from '../../chat/views/help.ts';
import { placeOf, type TeamsPlace } from '../place.ts';
import { TEAMS_SURFACE } from '../surface.ts';
import { post } from './answering.ts';
import type { TeamsDeps } from './index.ts';

async function installed(place: TeamsPlace, deps: TeamsDeps, greet: boolean): Promise<void> {
  if (!place.tenantId) return;
  await deps.conversations.record(place, new Date());
  deps.logger.info(`teams: installed in a ${place.type} conversation of tenant ${place.tenantId}`);
  if (greet && place.type === 'personal') {
    const help = helpView(TEAMS_SURFACE, COMMAND_REGISTRY.forPlatform('teams'));
    await post(
      deps,
      place,
      {
        summary: help.summary,
        parts: [
          help.parts[0]!,
          note(
            r`Hello, I am Linen: your linen provider's data here in Teams. Type a command below, such as ${commandWords('short')} or ${commandWords('balance')}.`,
          ),
          ...help.parts.slice(1),
        ],
      },
      'welcome',
    );
  }
}

async function removed(place: TeamsPlace, deps: TeamsDeps): Promise<void> {
  if (!place.tenantId) return;
  const forgotten = await deps.conversations.forget(
    place.type === 'channel' && place.teamId
      ? { tenantId: place.tenantId, teamId: place.teamId }
      : { tenantId: place.tenantId, conversationId: place.conversationId },
  );
  deps.logger.info(
    `teams: removed from a ${place.type} conversation of tenant ${place.tenantId}: ${forgotten.subscriptions} digest subscription(s) deleted${forgotten.tenantForgotten ? "; the tenant's connection forgotten" : ''}`,
  );
}

export function register(app: App, deps: TeamsDeps): void {
  const failed = (what: string) => (err: unknown) =>
    deps.logger.error(`teams ${what} failed: ${(err as Error).name}: ${(err as Error).message}`);
  app.on('install.add', async (ctx) => {
    await installed(placeOf(ctx), deps, true).catch(failed('install'));
  });
  app.on('install.remove', async (ctx) => {
    await removed(placeOf(ctx), deps).catch(failed('uninstall'));
  });
  app.on('conversationUpdate', async (ctx) => {
    const { membersAdded, membersRemoved, recipient } = ctx.activity;
    const place = placeOf(ctx);
    if (membersAdded?.some((m) => m.id === recipient.id)) await installed(place, deps, false).catch(failed('install'));
    if (membersRemoved?.some((m) => m.id === recipient.id)) await removed(place, deps).catch(failed('uninstall'));
    await ctx.next();
  });
}

export default { register };
