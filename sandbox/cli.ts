/**
 * `npm run sandbox`: starts the sandbox Linen API from environment variables (see sandbox/README.md) and prints
 * how to call it.
 */
import { pathToFileURL } from 'node:url';
import {
  DEFAULT_RATE_LIMIT,
  DEFAULT_SEED,
  DEFAULT_TIME_ZONE,
  type Sandbox,
  type SandboxOptions,
  startSandbox,
} from './index.ts';
import type { SandboxData } from './model.ts';
import { isLocalDate, isTimeZone, todayIn } from './server/dates.ts';
import { parseFaultSpec } from './server/faults.ts';

class ConfigError extends Error {}

function intVar(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  const value = Number(raw.trim());
  if (!/^\d+$/.test(raw.trim()) || value < min || value > max) {
    throw new ConfigError(`${name} must be an integer from ${min} to ${max} (got "${raw}")`);
  }
  return value;
}

function textVar(env: NodeJS.ProcessEnv, name: string): string | undefined {
  const raw = env[name];
  return raw === undefined || raw.trim() === '' ? undefined : raw.trim();
}

export function optionsFromEnv(
  env: NodeJS.ProcessEnv,
): SandboxOptions & { port: number; host: string; timeZone: string } {
  const port = intVar(env, 'SANDBOX_PORT', 4010, 0, 65_535);
  const host = textVar(env, 'SANDBOX_HOST') ?? '127.0.0.1';
  const timeZone = textVar(env, 'SANDBOX_TIMEZONE') ?? DEFAULT_TIME_ZONE;
  if (!isTimeZone(timeZone))
    throw new ConfigError(`SANDBOX_TIMEZONE must be an IANA timezone such as America/Chicago (got "${timeZone}")`);
  const seed = textVar(env, 'SANDBOX_SEED') ?? DEFAULT_SEED;
  const today = textVar(env, 'SANDBOX_TODAY');
  if (today !== undefined && !isLocalDate(today))
    throw new ConfigError(`SANDBOX_TODAY must be a calendar day as YYYY-MM-DD (got "${today}")`);
  const limit = intVar(env, 'SANDBOX_RATE_LIMIT', DEFAULT_RATE_LIMIT.limit, 1, 1_000_000_000);
  const windowMs = intVar(env, 'SANDBOX_RATE_WINDOW_MS', DEFAULT_RATE_LIMIT.windowMs, 1, 86_400_000);
  const faultSpec = textVar(env, 'SANDBOX_FAULTS');
  let faults = {};
  if (faultSpec !== undefined) {
    try {
      faults = parseFaultSpec(faultSpec);
    } catch (err) {
      throw new ConfigError(`SANDBOX_FAULTS is malformed: ${(err as Error).message}`);
    }
  }
  return { port, host, timeZone, seed, ...(today ? { today } : {}), rateLimit: { limit, windowMs }, faults };
}

function pad(rows: string[][]): string {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  return rows
    .map(
      (r) =>
        `  ${r
          .map((cell, i) => cell.padEnd(widths[i]!))
          .join('   ')
          .trimEnd()}`,
    )
    .join('\n');
}

function keyTable(data: SandboxData): string {
  const names = new Map(data.customers.map((c) => [c.id, c.name]));
  const units = new Map(data.units.map((u) => [u.id, u.name]));
  const rows = [['Key', 'Customers', 'Scopes']];
  for (const key of data.keys) {
    const all = data.customers.every((c) => key.customer_ids.includes(c.id));
    let customers = all ? 'all' : key.customer_ids.map((id) => names.get(id) ?? id).join(', ');
    if (key.unit_ids) customers += ` (units: ${key.unit_ids.map((id) => units.get(id) ?? id).join(', ')})`;
    const scopes = key.scopes.length ? key.scopes.join(', ') : 'none';
    rows.push([key.secret, customers, key.revoked ? `${scopes} (revoked: every request is 401)` : scopes]);
  }
  return pad(rows);
}

async function main(): Promise<void> {
  // A closed pipe (e.g. `| head`) must not turn into a crash.
  process.stdout.on('error', () => {});
  let options: ReturnType<typeof optionsFromEnv>;
  try {
    options = optionsFromEnv(process.env);
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(`sandbox: ${err.message}`);
      process.exit(1);
    }
    throw err;
  }

  let sandbox: Sandbox;
  try {
    sandbox = await startSandbox(options);
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    const why =
      e.code === 'EADDRINUSE'
        ? `port ${options.port} on ${options.host} is already in use (set SANDBOX_PORT, or 0 for a free port)`
        : e.code === 'EADDRNOTAVAIL'
          ? `cannot listen on SANDBOX_HOST ${options.host}`
          : e.message;
    console.error(`sandbox: could not start: ${why}`);
    process.exit(1);
  }

  const { data } = sandbox;
  const today = options.today ?? todayIn(data.organization.time_zone, Date.now());
  const demoKey = data.keys.find((k) => !k.revoked && k.scopes.length === 3) ?? data.keys.find((k) => !k.revoked);
  const faults = sandbox.faults.settings;
  const activeFaults = Object.entries(faults).filter(([, v]) => v > 0);
  const someCustomer = data.customers.find((c) => !c.is_group) ?? data.customers[0];
  const raiseExample = JSON.stringify({ kind: 'shortfall_streak', severity: 'high', customer_id: someCustomer?.id });
  console.log(
    [
      `Sandbox Linen API for ${data.organization.name}`,
      `  Base URL:  ${sandbox.baseUrl}`,
      `  Timezone:  ${data.organization.time_zone}`,
      `  Today:     ${today}${options.today ? ' (pinned by SANDBOX_TODAY)' : ''}`,
      `  Seed:      ${options.seed}`,
      `  Rate:      ${options.rateLimit?.limit} requests per ${options.rateLimit?.windowMs} ms per key`,
      `  Faults:    ${activeFaults.length ? activeFaults.map(([k, v]) => `${k}=${v}`).join(', ') : 'none'}`,
      '',
      'Demo keys (send as "Authorization: Bearer <key>"):',
      keyTable(data),
      '',
      'Try:',
      `  curl -H "Authorization: Bearer ${demoKey?.secret ?? '<key>'}" ${sandbox.baseUrl}/customers`,
      '',
      'Change the data while it runs (every route: sandbox/README.md, "Changing the data"):',
      `  curl -X POST ${sandbox.origin}/__sandbox/changes/signals -d '${raiseExample}'`,
      `  curl -X DELETE ${sandbox.origin}/__sandbox/changes    # back to the seeded data`,
      '',
      'Press Ctrl+C to stop.',
    ].join('\n'),
  );

  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) process.exit(130);
    stopping = true;
    console.error(`\nsandbox: ${signal} received, shutting down`);
    sandbox.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

const invokedDirectly = process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href;
if (invokedDirectly) {
  void main().catch((err: unknown) => {
    console.error(`sandbox: ${(err as Error)?.message ?? String(err)}`);
    process.exit(1);
  });
}
