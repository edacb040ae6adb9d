/**
 * Console mode: the bot without Slack or Teams. Reads `/linen ...` lines from stdin (or one `--ask` command),
 * answers them with the same handlers and prints the Block Kit (with `--teams`, the Adaptive Card) as plain text.
 * With no LINEN_BASE_URL it starts the sandbox API in-process and uses its all-access demo key, and `sandbox ...`
 * lines change the sandbox's data (sandbox-commands.ts). `/linen digest ...` and `/linen alert ...` work too: the
 * store is opened on first use (DATABASE_URL, else PGlite under LINEN_DATA_DIR), the console's own channel is
 * `#console`, and `preview` shows a digest. No digest is posted here; the alert worker runs once the store is open,
 * each alert printed as posted in its conversation (alerts.ts).
 */
import { createInterface } from 'node:readline';
import { clientsByKeyRef, keyRefOf } from '../../base/key-ref.ts';
import { createLogger } from '../../base/logging/logger.ts';
import type { SqlExecutor } from '../../base/store/sql.ts';
import { countingCheckRequests } from '../../chat/alerts/request-count.ts';
import { AlertStore } from '../../chat/alerts/storage/store.ts';
import { type AlertDeps, answerText } from '../../chat/answers/answer.ts';
import { COMMAND_REGISTRY } from '../../chat/commands/index.ts';
import type { Content } from '../../chat/content/document.ts';
import { code, r } from '../../chat/content/rich.ts';
import type { DigestChannels } from '../../chat/digests/digest-answers.ts';
import type { DigestStore } from '../../chat/digests/index.ts';
import { digestStoreOver } from '../../chat/digests/storage/index.ts';
import { FollowStore } from '../../chat/home/follows.ts';
import { LinenService } from '../../chat/linen.ts';
import type { Sandbox } from '../../sandbox/index.ts';
import { today as dayIn, isIsoDay, isValidTimeZone } from '../../shared/dates.ts';
import { startOfDayInZone } from '../../shared/day-start.ts';
import { processAnswers } from '../../shared/node.ts';
import { toSlackMessage } from '../../slack-bot/blocks/render.ts';
import { renderMessage } from '../../slack-bot/console-render.ts';
import { SLACK_SURFACE } from '../../slack-bot/surface.ts';
import { cardToText } from '../../teams-bot/cards/card-text.ts';
import { toAdaptiveCard } from '../../teams-bot/cards/render.ts';
import { teamsDigestChannels } from '../../teams-bot/digests/channels.ts';
import { TEAMS_SURFACE } from '../../teams-bot/surface.ts';
import { ConfigError, DEFAULT_DATA_DIR, loadDigestConfig } from '../config.ts';
import { openServiceDatabase } from '../store.ts';
import { CONSOLE_ALERTS_POLL_SECONDS, type ConsoleAlerts, startConsoleAlerts } from './alerts.ts';
import { isSandboxCommand, runSandboxCommand } from './sandbox-commands.ts';

export const DEMO_KEY = 'lk_live_demo_all_access';
export const DEMO_TIME_ZONE = 'America/Chicago';
/** The console's stand-ins for the Slack user and channel a command comes from. */
export const CONSOLE_USER = 'U0CONSOLE';
export const CONSOLE_CHANNEL = 'C0CONSOLE';
/** The person's direct conversation with the bot, where an alert set with `dm` posts. */
const CONSOLE_DIRECT = 'D0CONSOLE';

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

/** The poll interval of the console's alert worker: ALERTS_POLL_SECONDS when set, else one a person can wait for. */
function consolePollMs(env: Record<string, string | undefined>, configured: number): number {
  return env.ALERTS_POLL_SECONDS?.trim() ? configured : CONSOLE_ALERTS_POLL_SECONDS * 1000;
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

  let sandbox: Sandbox | undefined;
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
    sandbox = await startSandbox({ port: 0, timeZone: timeZone ?? DEMO_TIME_ZONE, ...(today ? { today } : {}) });
    if (today) {
      // Noon of the pinned day, moving on as the sandbox's own changes do: alerts are checked poll after poll.
      const noon = startOfDayInZone(today, sandbox.data.organization.time_zone).getTime() + 12 * 3_600_000;
      const started = Date.now();
      now = () => noon + (Date.now() - started);
    }
    baseUrl = sandbox.baseUrl;
    apiKey ??= DEMO_KEY;
    timeZone = sandbox.data.organization.time_zone;
    source = `the sandbox Linen API at ${baseUrl} (demo key ${apiKey.slice(0, 8)}…)`;
  }
  logger.addSecret(apiKey);
  logger.addSecret(env.DATABASE_URL);
  const digestConfig = loadDigestConfig(env);
  const pollMs = consolePollMs(env, digestConfig.alertsPollMs);
  const clock = { now: () => new Date(now ? now() : Date.now()) };
  // The requests of an alert check are counted for it (the store keeps the count of each key's last check).
  const linen = new LinenService({ baseUrl, apiKey, timeZone, observer: countingCheckRequests(undefined) });
  const linenClientFor = clientsByKeyRef(apiKey ? [apiKey] : [], () => linen.backgroundClient);
  const render = (content: Content) =>
    teams ? cardToText(toAdaptiveCard(content)) : renderMessage(toSlackMessage(content));

  // The store is opened on first use (a digest or alert command, or a change of the sandbox), not at start; the
  // alert worker starts with it.
  let stores: Promise<{ database: SqlExecutor; digests: DigestStore; alerts: AlertStore }> | undefined;
  let consoleAlerts: ConsoleAlerts | undefined;
  const openStores = () => {
    stores ??= openServiceDatabase(
      { databaseUrl: env.DATABASE_URL?.trim() || undefined, dataDir: env.LINEN_DATA_DIR?.trim() || DEFAULT_DATA_DIR },
      {},
    ).then((database) => {
      const alerts = new AlertStore(database);
      consoleAlerts = startConsoleAlerts({
        store: alerts,
        linenClientFor,
        render,
        print,
        where: (channelId) =>
          channelId === CONSOLE_DIRECT
            ? { posted: 'your direct messages', direct: true }
            : { posted: teams ? 'this channel' : `#${channelId}`, direct: false },
        pollMs,
        clock,
        onlyWhenAsked: options.ask !== undefined,
      });
      return { database, digests: digestStoreOver(database), alerts };
    });
    return stores;
  };
  // Teams names no other channel in a message: a digest or an alert is for the conversation it is typed in.
  const channels: DigestChannels = {
    ...(teams ? teamsDigestChannels : consoleChannels),
    direct: async () => ({ id: CONSOLE_DIRECT }),
  };
  const digests = {
    store: async () => (await openStores()).digests,
    platform: teams ? ('teams' as const) : ('slack' as const),
    channels,
    keyRef: apiKey ? keyRefOf(apiKey) : undefined,
    // The person at the terminal runs the bot: LINEN_ADMIN_USER_IDS is checked for its form only.
    adminUserIds: digestConfig.adminUserIds.length ? [CONSOLE_USER] : [],
  };
  // `alert test` asks for a delivery at once: it is made once its answer is printed, so the answer comes first.
  let deliveryAsked = false;
  const alerts: AlertDeps = {
    store: async () => (await openStores()).alerts,
    pollMs,
    wake: () => {
      deliveryAsked = true;
    },
  };
  // The person at the terminal is alone with Linen, as in a direct message (their home is shown there).
  const caller = { userId: CONSOLE_USER, channelId: CONSOLE_CHANNEL, privateChat: true, platform: digests.platform };
  // What the person follows on their home, in the same store (opened on first use too).
  let follows: Promise<FollowStore> | undefined;
  const home = { follows: () => (follows ??= openStores().then((s) => new FollowStore(s.database))) };
  // The commands of the platform whose answers are shown: help lists them, and the others are unknown here.
  const commands = COMMAND_REGISTRY.forPlatform(digests.platform);
  const surface = teams ? TEAMS_SURFACE : SLACK_SURFACE;
  const changeSandbox = async (text: string) => {
    if (!sandbox) {
      print(
        `The sandbox commands change the sandbox the console starts itself; this console asks the Linen API at ${baseUrl}, whose data it cannot change.`,
      );
      return;
    }
    const result = await runSandboxCommand(text, {
      sandbox,
      customers: () => linen.customers(),
      today: () => dayIn(timeZone!, clock.now()),
    });
    print(result.text);
    if (!result.changed) return;
    // The key's answers kept for a few seconds are no longer what the sandbox answers.
    if (apiKey) processAnswers.forgetKey(apiKey);
    await openStores();
    await consoleAlerts?.checkNow();
  };
  const ask = async (line: string) => {
    const text = stripCommand(line);
    if (isSandboxCommand(text)) return changeSandbox(text);
    const m = await answerText(
      text,
      { linen, logger, now, digests, alerts, caller, surface, commands, home },
      { share: !teams },
    );
    print(render(m.content));
    if (deliveryAsked) {
      deliveryAsked = false;
      await consoleAlerts?.deliverNow();
    }
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
    print(
      `Alerts are checked every ${pollMs / 1000} s (ALERTS_POLL_SECONDS): "${teams ? '' : '/linen '}alert help" sets one${
        sandbox ? ', and "sandbox help" shows how to change the sandbox\'s data to see it fire' : ''
      }.`,
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
    // The store may still be opening: its worker is stopped once it has started, before the store closes.
    const opened = await stores?.catch(() => null);
    await consoleAlerts?.stop();
    if (opened) {
      await opened.digests.drain();
      await opened.database.close();
    }
    await linen.close();
    await sandbox?.close();
  }
}
