/** Every listener, registered the way slack-samples/bolt-ts-starter-template does: one `register` per kind. */
import type { App } from '@slack/bolt';
import type { WorkspaceDeps } from '../workspaces/answer-in-workspace.ts';
import actions from './actions/index.ts';
import commands from './commands/index.ts';
import views from './views/index.ts';

/** Each answer resolves its workspace's Linen client (`workspaces`); multi-workspace mode adds `connect`. */
export type BotDeps = WorkspaceDeps;

export function registerListeners(app: App, deps: BotDeps): void {
  commands.register(app, deps);
  actions.register(app, deps);
  views.register(app, deps);
}
