/**
 * The service's scrubbing logger as Bolt, its receivers and its Web API clients take one (`@slack/logger`'s
 * `Logger`, whose levels are an enum of the same words): every line Slack's SDK writes goes through the scrubbing.
 */
import { type Logger, LogLevel } from '@slack/bolt';
import type { ServiceLogger, LogLevel as ServiceLogLevel } from '../base/logging/logger.ts';

const TO_BOLT: Record<ServiceLogLevel, LogLevel> = {
  debug: LogLevel.DEBUG,
  info: LogLevel.INFO,
  warn: LogLevel.WARN,
  error: LogLevel.ERROR,
};
const FROM_BOLT: Record<LogLevel, ServiceLogLevel> = {
  [LogLevel.DEBUG]: 'debug',
  [LogLevel.INFO]: 'info',
  [LogLevel.WARN]: 'warn',
  [LogLevel.ERROR]: 'error',
};

export function boltLogger(logger: ServiceLogger): Logger {
  return {
    debug: (...args: unknown[]) => logger.debug(...args),
    info: (...args: unknown[]) => logger.info(...args),
    warn: (...args: unknown[]) => logger.warn(...args),
    error: (...args: unknown[]) => logger.error(...args),
    setLevel: (level: LogLevel) => logger.setLevel(FROM_BOLT[level]),
    getLevel: () => TO_BOLT[logger.getLevel()],
    setName: (name: string) => logger.setName(name),
  };
}
