/**
 * `LOG_FORMAT=json`: one JSON object a line, written by pino: `level` by name, `time` in ISO 8601, `pid`,
 * `hostname`, `name`, the line's fields, `msg`. Lines arrive scrubbed; pino only serializes and writes them,
 * synchronously, so nothing is lost when the process exits.
 */
import { pino } from 'pino';
import type { LogLevel } from './logger.ts';

export type LineWrite = (line: string, level: LogLevel) => void;

export type JsonLine = (
  level: LogLevel,
  fields: Record<string, unknown>,
  message: { name: string; msg: string },
) => void;

export function jsonLineWriter(write: LineWrite): JsonLine {
  // pino writes each line during the call that logs it: the level of that call routes the line.
  let current: LogLevel = 'info';
  const log = pino(
    {
      level: 'debug',
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
    },
    { write: (line: string) => write(line.endsWith('\n') ? line.slice(0, -1) : line, current) },
  );
  return (level, fields, { name, msg }) => {
    current = level;
    log[level]({ name, ...fields }, msg);
  };
}
