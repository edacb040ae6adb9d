/**
 * The settings of the Excel service alone (`npm run excel:serve`), from the environment. The same names as the
 * bot's where they mean the same thing (LINEN_BASE_URL, PORT, BIND_ADDRESS, DATABASE_URL, LOG_FORMAT).
 */
import { isIP } from 'node:net';
import { resolve } from 'node:path';
import type { LogFormat } from '../../base/logging/logger.ts';
import { ConfigError, loadLogFormat } from '../../base/settings.ts';

export interface ExcelServeConfig {
  /** `LINEN_BASE_URL`; unset: the sandbox API starts in this process (a trial on this machine). */
  baseUrl: string | undefined;
  /** `PORT` (default 3000) and `BIND_ADDRESS` (default: all interfaces). */
  port: number;
  host: string | undefined;
  /** `DATABASE_URL`: each key's pacing in PostgreSQL, shared with the bot's replicas; unset: in this process. */
  databaseUrl: string | undefined;
  /** `EXCEL_ADDIN_DIR` (default dist/excel-addin): the built add-in. */
  filesDir: string;
  /** `TLS_CERT_FILE` and `TLS_KEY_FILE` (PEM): serve https itself, as Office requires, without a proxy in front. */
  tls: { certFile: string; keyFile: string } | undefined;
  /** `PUBLIC_URL`: the origin Excel reaches the service at (the manifest's URLs were built with it). */
  publicUrl: string | undefined;
  logFormat: LogFormat;
}

type Env = Record<string, string | undefined>;

const text = (env: Env, name: string) => {
  const v = env[name]?.trim();
  return v ? v : undefined;
};

export function loadExcelServeConfig(env: Env): ExcelServeConfig {
  const baseUrl = text(env, 'LINEN_BASE_URL')?.replace(/\/+$/, '');
  if (baseUrl !== undefined) {
    let url: URL;
    try {
      url = new URL(baseUrl);
    } catch {
      throw new ConfigError(
        `LINEN_BASE_URL must be the Linen API's address, e.g. https://api.example.com/v1 (got "${baseUrl}").`,
      );
    }
    if (!/^https?:$/.test(url.protocol) || url.search || url.hash || url.username || url.password)
      throw new ConfigError('LINEN_BASE_URL must be an http(s) address without a query, fragment or credentials.');
  }
  const portRaw = text(env, 'PORT');
  if (portRaw !== undefined && (!/^\d+$/.test(portRaw) || Number(portRaw) > 65_535))
    throw new ConfigError(`PORT must be an integer from 0 to 65535 (got "${portRaw}").`);
  const host = text(env, 'BIND_ADDRESS');
  if (host !== undefined && isIP(host) === 0)
    throw new ConfigError(
      `BIND_ADDRESS must be an IP address of this machine, such as 127.0.0.1 or 0.0.0.0 (got "${host}").`,
    );
  const databaseUrl = text(env, 'DATABASE_URL');
  if (databaseUrl !== undefined && !/^postgres(ql)?:\/\//.test(databaseUrl))
    throw new ConfigError('DATABASE_URL must be a postgres:// or postgresql:// URL.');
  const certFile = text(env, 'TLS_CERT_FILE');
  const keyFile = text(env, 'TLS_KEY_FILE');
  if ((certFile === undefined) !== (keyFile === undefined))
    throw new ConfigError('Set both TLS_CERT_FILE and TLS_KEY_FILE to serve https, or neither.');
  return {
    baseUrl,
    port: portRaw === undefined ? 3000 : Number(portRaw),
    host,
    databaseUrl,
    filesDir: resolve(text(env, 'EXCEL_ADDIN_DIR') ?? 'dist/excel-addin'),
    tls: certFile && keyFile ? { certFile, keyFile } : undefined,
    publicUrl: text(env, 'PUBLIC_URL'),
    logFormat: loadLogFormat(env),
  };
}
