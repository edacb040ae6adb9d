/**
 * The service's logger: one line per message, every line scrubbed of the Linen key, the Slack tokens, the Teams
 * client secret and the signing secret (and of anything that looks like a bearer token or a JWT) before it is
 * written. Its shape is the one Slack's and Microsoft's SDKs log through (each adapter wraps it for its SDK:
 * `slack-bot/bolt-logger.ts`, `teams-bot/sdk-logger.ts`). Lines are plain text, or with `format: 'json'` one JSON
 * object each (written by pino), carrying the fields given with `logFields`.
 */
import { redact } from '../../shared/redact.ts';
import { LogFields, requestIdOf } from './log-fields.ts';
import { jsonLineWriter } from './log-json.ts';

/** The levels, lowest first (the same words Bolt's and pino's levels use). */
export type LogLevel = 'debug' | 'info' | 'warn' | 'error';

const ORDER: Record<LogLevel, number> = { debug: 0, info: 1, warn: 2, error: 3 };

/** Slack tokens have recognisable prefixes; scrub them even when they are not the configured ones. */
const SLACK_TOKEN = /\bxox[abposre]-[A-Za-z0-9-]+|\bxapp-[A-Za-z0-9-]+/g;
/** So have Linen keys (`lk_live_…`): one typed into a form is scrubbed before the bot knows it is one. */
const LINEN_KEY = /\blk_[a-z]+_[A-Za-z0-9_-]{6,}/g;
/** A JWT (the Bot Framework's tokens, Entra's access tokens): header, payload and signature, base64url. */
const JWT = /\beyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]*/g;
/**
 * Short-lived credentials Bolt prints at debug level: a command's response_url (anyone holding it may post to the
 * channel for 30 minutes) and the one-time ticket of a Socket Mode connection URL.
 */
const SLACK_LINKS = /(https:\/\/hooks\.slack\.com\/(?:commands|actions)\/)[^\s"'\\]+|([?&]ticket=)[^\s"'&\\]+/g;

export interface ServiceLogger {
  debug(...args: unknown[]): void;
  info(...args: unknown[]): void;
  warn(...args: unknown[]): void;
  error(...args: unknown[]): void;
  setLevel(level: LogLevel): void;
  getLevel(): LogLevel;
  setName(name: string): void;
  /** Add a secret to scrub (e.g. once it is known). */
  addSecret(secret: string | undefined): void;
}

export interface LoggerOptions {
  level?: LogLevel | undefined;
  secrets?: readonly (string | undefined)[] | undefined;
  /** Where lines go (default: stderr for warn/error, stdout otherwise). */
  write?: ((line: string, level: LogLevel) => void) | undefined;
  name?: string | undefined;
  /** `text` (default) or `json`: one JSON object a line. */
  format?: LogFormat | undefined;
}

export type LogFormat = 'text' | 'json';

function show(arg: unknown): string {
  if (typeof arg === 'string') return arg;
  if (arg instanceof LogFields) return arg.inText ? JSON.stringify(arg.fields) : '';
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

export function createLogger(options: LoggerOptions = {}): ServiceLogger {
  let level: LogLevel = options.level ?? 'info';
  let name = options.name ?? 'linen-bot';
  const secrets = new Set<string>();
  for (const s of options.secrets ?? []) if (s) secrets.add(s);
  const write =
    options.write ??
    ((line: string, lvl: LogLevel) => {
      if (lvl === 'error' || lvl === 'warn') process.stderr.write(`${line}\n`);
      else process.stdout.write(`${line}\n`);
    });

  const scrub = (text: string) =>
    redact(text, [...secrets])
      .replace(SLACK_TOKEN, '[redacted]')
      .replace(LINEN_KEY, '[redacted]')
      .replace(JWT, '[redacted]')
      .replace(
        SLACK_LINKS,
        (_match, hook: string | undefined, ticket: string | undefined) => `${hook ?? ticket}[redacted]`,
      );
  const text = (args: unknown[]) =>
    args
      .map(show)
      .filter((t) => t !== '')
      .join(' ');
  const json = options.format === 'json' ? jsonLineWriter(write) : null;

  const emit = (lvl: LogLevel, args: unknown[]) => {
    if (ORDER[lvl] < ORDER[level]) return;
    if (json) {
      json(lvl, scrubFields(fieldsOf(args), scrub), { name, msg: scrub(text(args.filter(isMessage))) });
      return;
    }
    write(scrub(`${new Date().toISOString()} ${lvl.toUpperCase()} [${name}] ${text(args)}`), lvl);
  };

  return {
    debug: (...args: unknown[]) => emit('debug', args),
    info: (...args: unknown[]) => emit('info', args),
    warn: (...args: unknown[]) => emit('warn', args),
    error: (...args: unknown[]) => emit('error', args),
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

const isMessage = (arg: unknown) => !(arg instanceof LogFields);

/** The fields of a JSON line: those given, and the request id of any failure among the arguments. */
function fieldsOf(args: unknown[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const arg of args) {
    if (arg instanceof LogFields) Object.assign(out, arg.fields);
    const requestId = requestIdOf(arg);
    if (requestId && out.request_id === undefined) out.request_id = requestId;
  }
  return out;
}

/** Every string in the fields scrubbed, however deep (a field is as likely as a message to hold a token). */
function scrubFields(value: Record<string, unknown>, scrub: (text: string) => string): Record<string, unknown> {
  const walk = (v: unknown, depth: number): unknown => {
    if (typeof v === 'string') return scrub(v);
    if (v instanceof Error) return scrub(show(v));
    if (depth > 8 || v === null || typeof v !== 'object') return v;
    if (Array.isArray(v)) return v.map((x) => walk(x, depth + 1));
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x, depth + 1)]));
  };
  return walk(value, 0) as Record<string, unknown>;
}
