/**
 * The Excel add-in's whole path in one process: the add-in built into a temporary folder (as `npm run build` does,
 * with PUBLIC_URL on loopback), the sandbox API, the service's Excel routes (files and relay, each key paced in
 * this process) on a loopback HTTP server, and the built runtime page's scripts loaded in a `vm` as Excel's shared
 * runtime loads them (excel-runtime.ts), on the service's origin.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { withExcelRoutes } from '../../excel-addin/service/mount.ts';
import { createExcelRoutes, type ExcelRoutes } from '../../excel-addin/service/routes.ts';
import { type Sandbox, startSandbox } from '../../sandbox/index.ts';
import { buildExcelAddin } from '../../scripts/build-excel-addin.ts';
import { getOrInsert } from '../../shared/collections.ts';
import { Pacer, type RequestPacer } from '../../shared/core/pacing.ts';
import { type ExcelRuntime, loadExcelRuntime, type RuntimeOptions } from './excel-runtime.ts';

export const TODAY = '2026-11-05';
export const TZ = 'America/Chicago';
export const DEMO_KEY = 'lk_live_demo_all_access';

export interface ServiceOptions {
  /** The sandbox's rate limit (default: high enough never to matter). */
  rateLimit?: { limit: number; windowMs: number };
  /** The key's pacing at the relay (default the API's 120 a minute). */
  pacing?: { limit: number; windowMs: number };
}

export interface ExcelHarness {
  dir: string;
  sandbox: Sandbox;
  /** The service's origin: the page's, and its relay's. */
  origin: string;
  /** The relay's log lines. */
  logs: string[];
  /** A runtime with the demo key saved (or `storage`), as a workbook opened in Excel. */
  runtime(options?: Partial<RuntimeOptions>): ExcelRuntime;
  close(): Promise<void>;
}

export async function startExcelService(
  dir: string,
  baseUrl: string,
  options: ServiceOptions = {},
): Promise<{ origin: string; logs: string[]; routes: ExcelRoutes; close(): Promise<void> }> {
  const logs: string[] = [];
  const pacers = new Map<string, RequestPacer>();
  const routes = createExcelRoutes({
    baseUrl,
    pacerFor: (key) => getOrInsert(pacers, key, () => new Pacer(options.pacing ?? { limit: 120, windowMs: 60_000 })),
    logger: { info: (l) => logs.push(l), warn: (l) => logs.push(l) },
    filesDir: dir,
  });
  const server: Server = createServer(
    withExcelRoutes(
      (_req, res) => {
        res.writeHead(404);
        res.end();
      },
      routes,
      (l) => logs.push(l),
    ),
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    logs,
    routes,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await routes.close();
    },
  };
}

export async function startExcelHarness(options: ServiceOptions = {}): Promise<ExcelHarness> {
  const dir = mkdtempSync(join(tmpdir(), 'linen-excel-'));
  await buildExcelAddin({ outDir: dir, publicUrl: 'https://localhost:3000', quiet: true });
  const sandbox = await startSandbox({
    port: 0,
    today: TODAY,
    timeZone: TZ,
    rateLimit: options.rateLimit ?? { limit: 100_000, windowMs: 60_000 },
  });
  const service = await startExcelService(dir, sandbox.baseUrl, options);
  return {
    dir,
    sandbox,
    origin: service.origin,
    logs: service.logs,
    runtime: (o = {}) =>
      loadExcelRuntime({
        dir,
        origin: service.origin,
        storage: { LINEN_API_KEY: DEMO_KEY, LINEN_TIMEZONE: TZ },
        ...o,
      }),
    async close() {
      await service.close();
      await sandbox.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
