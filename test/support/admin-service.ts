/**
 * The service as `npm start` runs it (its own Node process, on Slack for many workspaces), over an admin store
 * (admin-store.ts): the workspaces installed there, sealed with the same key. The API's address is never reached:
 * the digests and the alerts' checks are moved past the time the suite runs in, so the workers leave the store as
 * it was.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import type { SqlExecutor } from '../../base/store/sql.ts';
import { BASE_URL, ENCRYPTION_KEY } from './admin-store.ts';

export interface ServiceProcess {
  child: ChildProcess;
  pid: number;
  /** What it printed so far (stdout and stderr). */
  output(): string;
  /** SIGTERM, and its exit code once it has stopped. */
  stop(): Promise<number | null>;
  /** SIGKILL: it leaves whatever it had made behind. */
  kill(): Promise<void>;
}

/** Each active digest due and each key's alert check, and the runs and posts waiting for a retry, ten days on. */
export async function postponeDigests(db: SqlExecutor): Promise<void> {
  const later = new Date(Date.now() + 10 * 86_400_000);
  await db.query('UPDATE digest_subscriptions SET next_run_at = $1 WHERE next_run_at IS NOT NULL', [later]);
  await db.query(`UPDATE digest_runs SET scheduled_for = $1 WHERE status = 'pending'`, [later]);
  await db.query('UPDATE alert_checks SET next_at = $1', [later]);
  await db.query(`UPDATE alert_posts SET checked_at = $1 WHERE status = 'pending'`, [later]);
}

/** Starts `service/index.ts` with the store's settings; resolves once its digest worker has started. */
export function startService(storeEnv: Record<string, string>): Promise<ServiceProcess> {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env))
    if (!/^(SLACK_|TEAMS_|LINEN_|METRICS_|PORT$|DATABASE_URL$|LOG_FORMAT$)/.test(k)) env[k] = v;
  const child = spawn(process.execPath, ['--import', 'tsx', join(process.cwd(), 'service', 'index.ts')], {
    env: {
      ...env,
      SLACK_CLIENT_ID: '1111111111.2222222222',
      SLACK_CLIENT_SECRET: 'c0ffee00c0ffee00c0ffee00c0ffee00',
      SLACK_STATE_SECRET: 'state-secret-0123456789abcdef',
      SLACK_SIGNING_SECRET: '0123456789abcdef0123456789abcdef',
      LINEN_ENCRYPTION_KEY: ENCRYPTION_KEY,
      LINEN_BASE_URL: BASE_URL,
      PORT: '0',
      BIND_ADDRESS: '127.0.0.1',
      ...storeEnv,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    const read = (d: Buffer) => {
      out += d.toString();
      if (/digests: worker \S+ started/.test(out))
        resolve({
          child,
          pid: child.pid!,
          output: () => out,
          stop: () => {
            if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
            return exited;
          },
          kill: async () => {
            if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
            await exited;
          },
        });
    };
    child.stdout.on('data', read);
    child.stderr.on('data', read);
    void exited.then((code) => reject(new Error(`the service exited (${code}) before it started:\n${out}`)));
  });
}
