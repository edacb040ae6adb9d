/**
 * One place that builds the add-on into a temporary folder, starts the sandbox (worker thread) and a
 * blocking HTTP transport, and runs cells and menu actions as separate Apps Script executions.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type vm from 'node:vm';
import { buildAppsScript } from '../../scripts/build-apps-script.ts';
import { createWorld, type Execution, type GasWorld, loadProject, plain, startExecution } from './apps-script-fakes.ts';
import { type Backing, memoryBacking } from './apps-script-store.ts';
import { assertNoLeaks, type Produced } from './secret-leaks.ts';
import {
  BlockingTransport,
  type SandboxOptionsLite,
  startWorkerSandbox,
  type WorkerSandbox,
} from './worker-sandbox.ts';

export const KEYS = {
  all: 'lk_live_demo_all_access',
  mercyOps: 'lk_live_demo_mercy_ops',
  mercyBilling: 'lk_live_demo_mercy_billing',
  hotel: 'lk_live_demo_harbor_hotel',
  revoked: 'lk_live_demo_revoked',
} as const;

export const TODAY = '2026-11-05';
export const TZ = 'America/Chicago';

export interface Harness {
  sb: WorkerSandbox;
  dir: string;
  world: GasWorld;
  backing: Backing;
  scripts: vm.Script[];
  /** Run a custom function as its own execution; `args` may build values in the execution's realm. */
  cell(name: string, ...args: unknown[]): { value?: unknown; error?: string };
  cellWith(name: string, args: (ex: Execution) => unknown[]): { value?: unknown; error?: string };
  /** Run a menu or dialog function as its own execution. */
  menu(name: string, ...args: unknown[]): { value?: unknown; error?: string };
  /** The same, as another user at the keyboard (an editor). */
  menuAs(user: string, name: string, ...args: unknown[]): { value?: unknown; error?: string };
  /** Fire every installable trigger of the spreadsheet, each as its own execution running as its creator. */
  fireTriggers(): { trigger: string; value?: unknown; error?: string }[];
  setKey(key: string | null): void;
  setDocProp(name: string, value: string | null): void;
  /** Requests the fakes saw since the last call. */
  takeFetches(): GasWorld['fetches'];
  close(): Promise<void>;
}

export async function startHarness(
  options: { sandbox?: SandboxOptionsLite; key?: string | null } = {},
): Promise<Harness> {
  const dir = mkdtempSync(join(tmpdir(), 'linen-gas-'));
  await buildAppsScript({ outDir: dir, quiet: true });
  const sb = await startWorkerSandbox({
    today: TODAY,
    timeZone: TZ,
    rateLimit: { limit: 100_000, windowMs: 60_000 },
    ...options.sandbox,
  });
  const http = new BlockingTransport();
  const backing = memoryBacking();
  const world = createWorld({ backing, http, htmlDir: dir, spreadsheetTimeZone: TZ });
  const scripts = loadProject(dir);
  // What executions showed (cell values, error messages), checked for keys when the harness closes.
  const shown: Produced[] = [];
  const seen = (r: { value?: unknown; error?: string }) => {
    shown.push({ source: r.error !== undefined ? 'error message' : 'returned value', text: JSON.stringify(r) ?? '' });
    return r;
  };
  const h: Harness = {
    sb,
    dir,
    world,
    backing,
    scripts,
    cell: (name, ...args) => h.cellWith(name, () => args),
    cellWith(name, args) {
      const ex = startExecution(world, scripts, 'custom');
      try {
        const r = ex.call(name, ...args(ex));
        return seen('error' in r ? r : { value: plain(r.value) });
      } finally {
        ex.end();
      }
    },
    menu: (name, ...args) => h.menuAs(world.activeUser, name, ...args),
    menuAs(user, name, ...args) {
      const ex = startExecution(world, scripts, 'menu', { runAs: user });
      try {
        const r = ex.call(name, ...args);
        return seen('error' in r ? r : { value: plain(r.value) });
      } finally {
        ex.end();
      }
    },
    fireTriggers() {
      return world.triggers
        .filter((t) => t.document === world.spreadsheetId)
        .map((t) => {
          const ex = startExecution(world, scripts, 'trigger', { runAs: t.owner });
          try {
            // The time-driven event (https://developers.google.com/apps-script/guides/triggers/events#time-driven-events).
            const r = ex.call(t.handler, { authMode: 'FULL', triggerUid: t.id });
            return { trigger: t.id, ...seen('error' in r ? r : { value: plain(r.value) }) };
          } finally {
            ex.end();
          }
        });
    },
    setKey: (key) => backing.propsSet(`user:${world.owner}`, 'LINEN_API_KEY', key),
    setDocProp: (name, value) => backing.propsSet(`doc:${world.spreadsheetId}`, name, value),
    takeFetches: () => world.fetches.splice(0),
    async close() {
      await http.close();
      await sb.close();
      rmSync(dir, { recursive: true, force: true });
      assertNoLeaks(Object.values(KEYS), [
        ...shown,
        ...world.log.map((text) => ({ source: 'log line', text })),
        ...world.fetches.map((f) => ({ source: 'request URL', text: f.url })),
        ...backing.cacheValues().map((text) => ({ source: 'cached value', text })),
      ]);
    },
  };
  h.setDocProp('LINEN_BASE_URL', sb.baseUrl);
  if (options.key !== null) h.setKey(options.key ?? KEYS.all);
  return h;
}

/** "Refresh data" needs a new cache generation; tests that want a cold cache bump it the same way. */
export function coldCache(h: Harness): void {
  h.setDocProp('LINEN_CACHE_GENERATION', String(Math.random()));
}
