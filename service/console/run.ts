/**
 * Console mode: the bot without Slack or Teams. Reads `/linen ...` lines from stdin (or one `--ask` command),
 * answers them with the same handlers and prints the Block Kit (with `--teams`, the Adaptive Card) as plain text. With no LINEN_BASE_URL it
 * starts the sandbox API in-process and uses its all-access demo key. `/linen digest ...` works too: the
 * digest store is opened on first use (DATABASE_URL, else PGlite under LINEN_DATA_DIR); with no Slack to post
 * to, no worker runs here, the console's own channel is `#console`, and `preview` shows the digest.
 */
import { createInterface } from 'node:readline';
import { keyRefOf } from '../../base/key-ref.ts';
import { createLogger } from '../../base/logging/logger.ts';
import type { SqlExecutor } from '../../base/store/sql.ts';
import { answerText } from '../../chat/answers/answer.ts';
import { COMMAND_REGISTRY } from '../../chat/commands/index.ts';
import { code, r } from '../../chat/content/rich.ts';
import type { DigestChannels } from '../../chat/digests/digest-answers.ts';
import type { DigestStore } from '../../chat/digests/index.ts';
import { digestStoreOver } from '../../chat/digests/storage/index.ts';
import { FollowStore } from '../../chat/home/follows.ts';
import { LinenService } from '../../chat/linen.ts';
import { isIsoDay, isValidTimeZone } from '../../shared/dates.ts';
import { startOfDayInZone } from '../../shared/day-start.ts';
import { toSlackMessage } from '../../slack-bot/blocks/render.ts';
import { renderMessage } from '../../slack-bot/console-render.ts';
import { SLACK_SURFACE } from '../../slack-bot/surface.ts';
import { cardToText } from '../../teams-bot/cards/card-text.ts';
import { toAdaptiveCard } from '../../teams-bot/cards/render.ts';
import { teamsDigestChannels } from '../../teams-bot/digests/channels.ts';
import { TEAMS_SURFACE } from '../../teams-bot/surface.ts';
import { ConfigError, DEFAULT_DATA_DIR, loadDigestConfig } from '../config.ts';
import { openServiceDatabase } from '../store.ts';

export const DEMO_KEY = 'lk_live_demo_all_access';
export const DEMO_TIME_ZONE = 'America/Chicago';
/** The console's stand-ins for the Slack user and channel a command comes from. */
export const CONSOLE_USER = 'U0CONSOLE';
export const CONSOLE_CHANNEL = 'C0CONSOLE';

/** No chat platform here: every channel counts as postable, and `#console` is the one channel known by name. */
const consoleChannels: DigestChannels = {
  resolve: async (arg) =>
    'id' in arg || arg.name === 'console'
      ? { id: 'id' in arg ? arg.id : CONSOLE_CHANNEL }
      : {
          problem: r`I can't find a channel named #${arg.name}: check the spelling, and if it is private, run ${code('/invite @Linen')} in it first.`,
        },
  canPost: async () => null,
};

export interface ConsoleOptions {
  env: Record<string, string | undefined>;
  /** Answer this one command and return. */
  ask?: string | undefined;
  input?: NodeJS.ReadableStream;
  output?: NodeJS.WritableStream;
  /** Whose rendering the answers are shown in (default Slack's). */
  platform?: 'slack' | 'teams' | undefined;
}

/** `/linen balance` or `balance` alike. */
export function stripCommand(line: string): string {
  return line
    .trim()
    .replace(/^\/linen\b/i, '')
    .trim();
}

export async function runConsole(options: ConsoleOptions): Promise<number> {
  const teams = options.platform === 'teams';
  const out = options.output ?? process.stdout;
  const print = (s: string) => out.write(`${s}\n`);
  const env = options.env;
  const logger = createLogger({
    level: 'error' as never,
    write: (line) => process.stderr.write(`${line}\n`),
  });

  let closeSandbox: (() => Promise<void>) | undefined;
  let baseUrl = env.LINEN_BASE_URL?.trim() || undefined;
  let apiKey = env.LINEN_API_KEY?.trim() || undefined;
  let timeZone = env.LINEN_TIMEZONE?.trim() || undefined;
  let source: string;
  let now: (() => number) | undefined;
  if (baseUrl) {
    timeZone ??= DEMO_TIME_ZONE;
    if (!isValidTimeZone(timeZone))
      throw new ConfigError(`LINEN_TIMEZONE must be an IANA timezone such as America/Chicago (got "${timeZone}").`);
    source = `the Linen API at ${baseUrl}${apiKey ? '' : ' (no LINEN_API_KEY set)'}`;
  } else {
    const { startSandbox } = await import('../../sandbox/index.ts');
    // SANDBOX_TODAY pins the sandbox's "today" (as `npm run sandbox` does), for reproducible demos.
    const today = env.SANDBOX_TODAY?.trim() || undefined;
    if (today !== undefined && !isIsoDay(today))
      throw new ConfigError(`SANDBOX_TODAY must be a calendar day as YYYY-MM-DD (got "${today}").`);
    const sandbox = await startSandbox({ port: 0, timeZone: timeZone ?? DEMO_TIME_ZONE, ...(today ? { today } : {}) });
    if (today) {
      const noon = startOfDayInZone(today, sandbox.data.organization.time_zone).getTime() + 12 * 3_600_000;
      now = () => noon;
    }
    closeSandbox = () => sandbox.close();
    baseUrl = sandbox.baseUrl;
    apiKey ??= DEMO_KEY;
    timeZone = sandbox.data.organization.time_zone;
    source = `the sandbox Linen API at ${baseUrl} (demo key ${apiKey.slice(0, 8)}…)`;
  }
  logger.addSecret(apiKey);
  logger.addSecret(env.DATABASE_URL);
  const digestConfig = loadDigestConfig(env);
  const linen = new LinenService({ baseUrl, apiKey, timeZone });
  // The database is opened on first use (a digest command), not at start.
  let database: Promise<SqlExecutor> | undefined;
  let store: Promise<DigestStore> | undefined;
  const openDatabase = () =>
    (database ??= openServiceDatabase(
      { databaseUrl: env.DATABASE_URL?.trim() || undefined, dataDir: env.LINEN_DATA_DIR?.trim() || DEFAULT_DATA_DIR },
      {},
    ));
  const digests = {
    store: () => {
      store ??= openDatabase().then(digestStoreOver);
      return store;
    },
    platform: teams ? ('teams' as const) : ('slack' as const),
    // Teams names no other channel in a message: a digest is for the conversation it is typed in.
    channels: teams ? teamsDigestChannels : consoleChannels,
    keyRef: apiKey ? keyRefOf(apiKey) : undefined,
    // The person at the terminal runs the bot: LINEN_ADMIN_USER_IDS is checked for its form only.
    adminUserIds: digestConfig.adminUserIds.length ? [CONSOLE_USER] : [],
  };
  // The person at the terminal is alone with Linen, as in a direct message (their home is shown there).
  const caller = { userId: CONSOLE_USER, channelId: CONSOLE_CHANNEL, privateChat: true, platform: digests.platform };
  // What the person follows on their home, in the same store (opened on first use too).
  let follows: Promise<FollowStore> | undefined;
  const home = { follows: () => (follows ??= openDatabase().then((db) => new FollowStore(db))) };
  // The commands of the platform whose answers are shown: help lists them, and the others are unknown here.
  const commands = COMMAND_REGISTRY.forPlatform(digests.platform);
  const surface = teams ? TEAMS_SURFACE : SLACK_SURFACE;
  const ask = async (line: string) => {
    const m = await answerText(
      stripCommand(line),
      { linen, logger, now, digests, caller, surface, commands, home },
      { share: !teams },
    );
    print(teams ? cardToText(toAdaptiveCard(m.content)) : renderMessage(toSlackMessage(m.content)));
  };

  try {
    if (options.ask !== undefined) {
      await ask(options.ask);
      return 0;
    }
    print(`linen-connect ${teams ? 'Teams' : 'Slack'} bot, console mode: answering from ${source}.`);
    print(
      teams
        ? 'Type a message as you would to Linen in Teams, such as "balance", "signals" or "help"; Ctrl+D or Ctrl+C quits.'
        : 'Type a command such as "/linen balance", "/linen signals" or "/linen help"; Ctrl+D or Ctrl+C quits.',
    );
    const rl = createInterface({
      input: options.input ?? process.stdin,
      output: out,
      prompt: '> ',
      terminal: Boolean((options.input ?? process.stdin) === process.stdin && process.stdin.isTTY),
    });
    rl.prompt();
    let queue = Promise.resolve();
    await new Promise<void>((resolve) => {
      rl.on('line', (line) => {
        queue = queue.then(async () => {
          if (line.trim() !== '') {
            if (/^(exit|quit)$/i.test(line.trim())) {
              rl.close();
              return;
            }
            await ask(line);
          }
          rl.prompt();
        });
      });
      rl.on('SIGINT', () => rl.close());
      rl.on('close', () => {
        void queue.then(resolve);
      });
    });
    print('');
    return 0;
  } finally {
    if (store) await (await store.catch(() => null))?.drain();
    if (database) await (await database.catch(() => null))?.close();
    await linen.close();
    await closeSandbox?.();
  }
}
