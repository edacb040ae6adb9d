/**
 * Reading settings from the environment, for every part of the service: a missing or malformed setting is a
 * ConfigError with one line naming it (start-up prints it without a stack).
 */
import type { LogFormat } from './logging/logger.ts';

export class ConfigError extends Error {
  override name = 'ConfigError';
}

export type Env = Record<string, string | undefined>;

export function text(env: Env, name: string): string | undefined {
  const raw = env[name];
  if (raw === undefined) return undefined;
  const v = raw.trim();
  return v === '' ? undefined : v;
}

export function required(env: Env, name: string, hint: string): string {
  const v = text(env, name);
  if (v === undefined) throw new ConfigError(`${name} is not set: ${hint}`);
  return v;
}

export function noSpaces(name: string, v: string): string {
  if (/\s/.test(v)) throw new ConfigError(`${name} contains spaces or line breaks; paste it again.`);
  return v;
}

export function httpUrl(name: string, v: string): URL {
  let u: URL;
  try {
    u = new URL(v);
  } catch {
    throw new ConfigError(`${name} is not a URL (got "${v}").`);
  }
  if (u.protocol !== 'https:' && u.protocol !== 'http:')
    throw new ConfigError(`${name} must be an http(s) URL (got "${v}").`);
  return u;
}

/** `LOG_FORMAT`: `text` (the default) or `json`. */
export function loadLogFormat(env: Env): LogFormat {
  const raw = text(env, 'LOG_FORMAT');
  const format = raw?.toLowerCase() ?? 'text';
  if (format === 'text' || format === 'json') return format;
  throw new ConfigError(`LOG_FORMAT must be text or json (got "${raw}").`);
}
