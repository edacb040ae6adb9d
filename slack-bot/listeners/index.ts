/** Every listener, registered the way slack-samples/bolt-ts-starter-template does: one `register` per kind. */
import type { App } from '@slack/bolt';
import type { Deadlines } from '../../chat/answers/answer-in-time.ts';
import type { PlaceDeps } from '../../chat/connections/answer-in-place.ts';
import type { ChatMetrics } from '../../chat/operations/metrics.ts';
import type { SlackClient } from '../digests/delivery.ts';
import actions from './actions/index.ts';
import commands from './commands/index.ts';
import events from './events/index.ts';
import ignored from './ignored/index.ts';
import views from './views/index.ts';

/**
 * Each answer resolves its workspace's Linen client (`workspaces`); multi-workspace mode adds `connect`.
 * `deadlines`: when a person sees the interim message and the "not answering" sentence (default:
 * INTERACTIVE_DEADLINES).
 */
export type BotDeps = PlaceDeps & {
  /** The bot's own client (one workspace): it checks the channels digests are subscribed in. */
  digestSlack?: SlackClient | undefined;
  deadlines?: Deadlines | undefined;
  /** Counts each command and button by its outcome, and the time to its answer. */
  metrics?: Pick<ChatMetrics, 'command' | 'action'> | undefined;
};

/** The kinds, in the order their listeners are registered: payloads the bot never asked for are let go first. */
const KINDS = [ignored, commands, actions, events, views];

export function registerListeners(app: App, deps: BotDeps): void {
  for (const kind of KINDS) kind.register(app, deps);
}
