/**
 * `npm start`: the service. With Slack or Teams settings in the environment it serves them (and Excel's add-in);
 * with none it runs the console on embedded defaults (sandbox API, demo key). `--ask "/linen signals"` answers one
 * command in the console and exits; `--teams` shows the answers as Teams renders them (Adaptive Cards, as text).
 */
import { pathToFileURL } from 'node:url';
import { ConfigError, isConsoleMode, loadConfig } from './config.ts';
import { runConsole } from './console/run.ts';
import { reencryptStore } from './reencrypt-command.ts';
import { startBot } from './start.ts';

export interface Cli {
  ask?: string | undefined;
  help: boolean;
  /** Seal every stored secret again with the current LINEN_ENCRYPTION_KEY, then exit. */
  reencrypt: boolean;
  /** The console shows Teams' rendering (an Adaptive Card as text) instead of Slack's. */
  teams: boolean;
}

export function parseArgs(argv: readonly string[]): Cli {
  const cli: Cli = { help: false, reencrypt: false, teams: false };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--ask') {
      const v = argv[i + 1];
      if (v === undefined) throw new ConfigError('--ask needs a command, e.g. --ask "/linen signals".');
      cli.ask = v;
      i++;
    } else if (a.startsWith('--ask=')) cli.ask = a.slice(6);
    else if (a === '--help' || a === '-h') cli.help = true;
    else if (a === '--reencrypt') cli.reencrypt = true;
    else if (a === '--teams') cli.teams = true;
    else
      throw new ConfigError(`unknown argument "${a}" (use --ask "/linen ...", --teams, --reencrypt or no argument).`);
  }
  return cli;
}

const USAGE = `Usage: npm start [-- --ask "/linen signals" | --teams | --reencrypt]
Without SLACK_* or TEAMS_* settings: a console on the sandbox API (--teams: answers as Teams shows them).
With SLACK_BOT_TOKEN and SLACK_SIGNING_SECRET (or SLACK_APP_TOKEN): Slack for one workspace. With SLACK_CLIENT_ID,
SLACK_CLIENT_SECRET, SLACK_STATE_SECRET and LINEN_ENCRYPTION_KEY: Slack for every workspace that installs it.
With TEAMS_CLIENT_ID, TEAMS_CLIENT_SECRET and TEAMS_TENANT_ID: Microsoft Teams (beside Slack when both are set).
--reencrypt seals every stored secret again with LINEN_ENCRYPTION_KEY (after a key rotation) and exits.
See slack-bot/README.md and teams-bot/README.md.`;

/** After SIGTERM the process is gone within this, even if something under way does not end. */
const STOP_LIMIT_MS = 19_500;

export async function main(argv: readonly string[], env: Record<string, string | undefined>): Promise<number> {
  const cli = parseArgs(argv);
  if (cli.help) {
    console.log(USAGE);
    return 0;
  }
  if (cli.reencrypt) {
    const moved = await reencryptStore(env);
    console.log(`linen-bot: ${moved}`);
    return 0;
  }
  if (cli.teams && cli.ask === undefined && !isConsoleMode(env))
    throw new ConfigError(
      '--teams shows the console as Teams renders answers; it is for the console (no SLACK_ or TEAMS_ settings) or with --ask.',
    );
  if (cli.ask !== undefined || isConsoleMode(env)) {
    return runConsole({ env, ask: cli.ask, platform: cli.teams ? 'teams' : 'slack' });
  }
  const config = loadConfig(env);
  // Listen before starting: a signal that arrives during start-up then stops the bot once it is up, instead
  // of killing it half-started. The handlers stay: a repeated signal (a supervisor's, or a wrapper's relay)
  // must not kill a bot that is already stopping cleanly.
  const stopRequested = new Promise<void>((resolve) => {
    process.on('SIGINT', () => resolve());
    process.on('SIGTERM', () => resolve());
  });
  const bot = await startBot(config);
  await stopRequested;
  bot.logger.info('stopping: no new requests; finishing the commands and digests under way');
  // A stop that hangs (a database that never answers) must not outlive a supervisor's patience.
  setTimeout(() => {
    bot.logger.error(`could not stop within ${STOP_LIMIT_MS / 1000} s; exiting`);
    process.exit(1);
  }, STOP_LIMIT_MS).unref();
  await bot.stop();
  bot.logger.info('stopped');
  return 0;
}

const isEntry = process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href;
if (isEntry || process.env.LINEN_BOT_BUNDLED === '1') {
  process.stdout.on('error', () => {});
  main(process.argv.slice(2), process.env).then(
    (code) => process.exit(code),
    (err: unknown) => {
      if (err instanceof ConfigError) console.error(`linen-bot: ${err.message}`);
      else console.error(`linen-bot: could not start: ${(err as Error)?.message ?? String(err)}`);
      process.exit(1);
    },
  );
}
