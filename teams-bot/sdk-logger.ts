/**
 * The Teams SDK's log lines through the bot's scrubbing logger, one line each without a stack. The SDK logs a refused
 * request (a bad token) as an error with its stack: that is a caller's fault, not the bot's, so it is a warning here.
 */
import type { App } from '@microsoft/teams.apps';
import type { BotLogger } from '../chat/logging/logger.ts';

/** The SDK's logger interface (from `@microsoft/teams.common`, as the App takes it). */
type ILogger = NonNullable<NonNullable<ConstructorParameters<typeof App>[0]>['logger']>;

const oneLine = (parts: unknown[]) =>
  parts
    .map((p) => (p instanceof Error ? `${p.name}: ${p.message}` : typeof p === 'string' ? p : safeJson(p)))
    .join(' ')
    .replace(/\s*\n\s*/g, ' ');

function safeJson(v: unknown): string {
  try {
    return JSON.stringify(v) ?? String(v);
  } catch {
    return String(v);
  }
}

export function sdkLogger(logger: BotLogger, name = 'teams'): ILogger {
  const at =
    (write: (line: string) => void) =>
    (...parts: unknown[]) =>
      write(`[${name}] ${oneLine(parts)}`);
  const debug = at((l) => logger.debug(l));
  const warn = at((l) => logger.warn(l));
  return {
    error: warn,
    warn,
    info: debug,
    debug,
    trace: debug,
    log: (level: string, ...parts: unknown[]) => (level === 'error' || level === 'warn' ? warn : debug)(...parts),
    child: (child: string) => sdkLogger(logger, `${name}/${child}`),
  } as ILogger;
}
