/**
 * The bot's logger: one line per message, every line scrubbed of the Linen key, the Slack tokens and the
 * signing secret (and of anything that looks like a bearer token) before it is written. It implements
 * @slack/logger's interface, so Bolt and its Web API client log through it too.
 */
import { type Logger, LogLevel } from '@slack/bolt';
import { redact } from '../shared/redact.ts';

const ORDER: Record<LogLevel, number> = {
  [LogLevel.DEBUG]: 0,
  [LogLevel.INFO]: 1,
  [LogLevel.WARN]: 2,
  [LogLevel.ERROR]: 3,
};

/** Slack tokens have recognisable prefixes; scrub them even when they are not the configured ones. */
const SLACK_TOKEN = /\bxox[abposre]-[A-Za-z0-9-]+|\bxapp-[A-Za-z0-9-]+/g;
/**
 * Short-lived credentials Bolt prints at debug level: a command's response_url (anyone holding it may post to the
 * channel for 30 minutes) and the one-time ticket of a Socket Mode connection URL.
 */
const SLACK_LINKS = /(https:\/\/hooks\.slack\.com\/(?:commands|actions)\/)[^\s"'\\]+|([?&]ticket=)[^\s"'&\\]+/g;

export interface BotLogger extends Logger {
  /** Add a secret to scrub (e.g. once it is known). */
  addSecret(secret: string | undefined): void;
}

export interface LoggerOptions {
  level?: LogLevel | undefined;
  secrets?: readonly (string | undefined)[] | undefined;
  /** Where lines go (default: stderr for warn/error, stdout otherwise). */
  write?: ((line: string, level: LogLevel) => void) | undefined;
  name?: string | undefined;
}

function show(arg: unknown): string {
  if (typeof arg === 'string') return arg;
  if (arg instanceof Error) {
    // Name and message only: a stack trace belongs in a debugger, not in a log a support desk reads.
    const code = (arg as { code?: unknown }).code;
    return `${arg.name}${typeof code === 'string' ? ` (${code})` : ''}: ${arg.message}`;
  }
  try {
    return JSON.stringify(arg) ?? String(arg);
  } catch {
    return String(arg);
  }
}

export function createLogger(options: LoggerOptions = {}): BotLogger {
  let level = options.level ?? LogLevel.INFO;
  let name = options.name ?? 'linen-bot';
  const secrets = new Set<string>();
  for (const s of options.secrets ?? []) if (s) secrets.add(s);
  const write =
    options.write ??
    ((line: string, lvl: LogLevel) => {
      if (lvl === LogLevel.ERROR || lvl === LogLevel.WARN) process.stderr.write(`${line}\n`);
      else process.stdout.write(`${line}\n`);
    });

  const emit = (lvl: LogLevel, args: unknown[]) => {
    if (ORDER[lvl] < ORDER[level]) return;
    const text = args.map(show).join(' ');
    const line = `${new Date().toISOString()} ${lvl.toUpperCase()} [${name}] ${text}`;
    const scrubbed = redact(line, [...secrets])
      .replace(SLACK_TOKEN, '[redacted]')
      .replace(
        SLACK_LINKS,
        (_match, hook: string | undefined, ticket: string | undefined) => `${hook ?? ticket}[redacted]`,
      );
    write(scrubbed, lvl);
  };

  return {
    debug: (...args: unknown[]) => emit(LogLevel.DEBUG, args),
    info: (...args: unknown[]) => emit(LogLevel.INFO, args),
    warn: (...args: unknown[]) => emit(LogLevel.WARN, args),
    error: (...args: unknown[]) => emit(LogLevel.ERROR, args),
    setLevel: (l: LogLevel) => {
      level = l;
    },
    getLevel: () => level,
    setName: (n: string) => {
      name = n;
    },
    addSecret: (s: string | undefined) => {
      if (s) secrets.add(s);
    },
  };
}
