/**
 * The Teams SDK's warnings and errors through the bot's scrubbing logger, one line each without a stack. The SDK logs
 * a refused request (a bad token) as an error with its stack: a caller's fault, not the bot's, so a warning here. Its
 * debug and info lines are not written: they carry whole activities (what people type, a key pasted in a form).
 */
import type { App } from '@microsoft/teams.apps';
import type { ServiceLogger } from '../base/logging/logger.ts';

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

export function sdkLogger(logger: ServiceLogger, name = 'teams'): ILogger {
  const at =
    (write: (line: string) => void) =>
    (...parts: unknown[]) =>
      write(`[${name}] ${oneLine(parts)}`);
  const nothing = () => {};
  const warn = at((l) => logger.warn(l));
  return {
    error: warn,
    warn,
    info: nothing,
    debug: nothing,
    trace: nothing,
    log: (level: string, ...parts: unknown[]) => (level === 'error' || level === 'warn' ? warn(...parts) : undefined),
    child: (child: string) => sdkLogger(logger, `${name}/${child}`),
  } as ILogger;
}
