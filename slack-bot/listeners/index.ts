/** Every listener, registered the way slack-samples/bolt-ts-starter-template does: one `register` per kind. */
import type { App } from '@slack/bolt';
import type { DigestDeps } from '../answers/answer.ts';
import type { LinenService } from '../linen.ts';
import type { BotLogger } from '../logger.ts';
import actions from './actions/index.ts';
import type { Deadlines } from './answer-in-time.ts';
import commands from './commands/index.ts';
import ignored from './ignored/index.ts';

export interface BotDeps {
  linen: LinenService;
  logger: BotLogger;
  now?: (() => number) | undefined;
  digests?: DigestDeps | undefined;
  /** When a person sees the interim message and the "not answering" sentence (default: INTERACTIVE_DEADLINES). */
  deadlines?: Deadlines | undefined;
}

export function registerListeners(app: App, deps: BotDeps): void {
  ignored.register(app, deps);
  commands.register(app, deps);
  actions.register(app, deps);
}
