/**
 * `GET /readyz`: whether this replica should be sent work. Ready (200) when every check passes: the store answers
 * and has its migrations, and each chat platform's settings are loaded and its receiver started. Otherwise 503
 * with the first reason, in words that name no secret. Liveness is `/healthz`: a replica that cannot reach its
 * database is alive, only not ready. Once the bot is stopping it is never ready again.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { pendingMigrations } from '../base/store/migrate.ts';
import type { SqlExecutor } from '../base/store/sql.ts';
import { SERVICE_MIGRATIONS } from './store.ts';

export const READY_PATH = '/readyz';

/** The store's answer must come within this; a probe of a database that hangs must not hang itself. */
const STORE_TIMEOUT_MS = 2_000;

export interface ReadinessCheck {
  name: string;
  /** null when ready, else why not (shown to whoever probes: no secret, no driver message). */
  check(): Promise<string | null>;
}

export class Readiness {
  readonly #checks: ReadinessCheck[] = [];
  #stopping = false;

  add(check: ReadinessCheck): void {
    this.#checks.push(check);
  }

  stopping(): void {
    this.#stopping = true;
  }

  async state(): Promise<{ ready: boolean; reason?: string; checks: Record<string, string> }> {
    const results = await Promise.all(
      this.#checks.map(async (c) => [c.name, (await c.check().catch(() => `${c.name} check failed`)) ?? 'ok'] as const),
    );
    const checks = Object.fromEntries(results);
    const reason = this.#stopping ? 'shutting down' : results.find(([, r]) => r !== 'ok')?.[1];
    return reason ? { ready: false, reason, checks } : { ready: true, checks };
  }

  /** The `/readyz` handler, one of the service's HTTP server's probes (http-server.ts). */
  handler(): (req: IncomingMessage, res: ServerResponse) => void {
    return (_req, res) => {
      void this.state().then((state) => {
        res.writeHead(state.ready ? 200 : 503, { 'content-type': 'application/json', 'cache-control': 'no-store' });
        res.end(JSON.stringify(state));
      });
    };
  }
}

/**
 * The store answers a cheap query (which migrations it has) in time, and has every one this code knows. One query
 * at a time: probes arriving while it is unanswered wait for the same one, so a hung database is not sent a query
 * per probe.
 */
export function storeReadiness(db: SqlExecutor): ReadinessCheck {
  const notAnswering = 'the digest store is not answering';
  let query: Promise<string | null> | undefined;
  return {
    name: 'store',
    async check() {
      query ??= pendingMigrations(db, SERVICE_MIGRATIONS)
        .then(
          (pending) =>
            pending.length ? `the digest store's migrations are not applied (${pending.join(', ')})` : null,
          () => notAnswering,
        )
        .finally(() => {
          query = undefined;
        });
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<string>((resolve) => {
        timer = setTimeout(() => resolve(notAnswering), STORE_TIMEOUT_MS);
      });
      try {
        return await Promise.race([query, late]);
      } finally {
        clearTimeout(timer);
      }
    },
  };
}

/** A chat platform: its settings were loaded at start, and it is ready once its receiver has started. */
export function platformReadiness(name: string): ReadinessCheck & { started(): void } {
  let started = false;
  return {
    name,
    check: async () => (started ? null : `the ${name} receiver has not started`),
    started: () => {
      started = true;
    },
  };
}
