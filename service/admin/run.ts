/**
 * `npm run admin -- status [--json]`: the operator's view of the store, read directly, or on the embedded store
 * held by a running service, answered by that service (ask-service.ts): the same report either way. Exit codes:
 * 0 shown (an empty store included), 1 the store could not be opened or the service asked, 2 a usage mistake.
 */
import { askRunningService, ServiceNotAskedError } from './ask-service.ts';
import { openStoreForAdmin, StoreNotOpenedError } from './open-store.ts';
import { isEmpty, readStatus, type StatusReport } from './status.ts';
import { renderText } from './text.ts';
import { isoUtc } from './when.ts';

export const USAGE = 'Usage: npm run admin -- status [--json] (the store of DATABASE_URL, else LINEN_DATA_DIR).';

export interface AdminIo {
  out(text: string): void;
  err(text: string): void;
  now?: (() => Date) | undefined;
}

type Args = { help: true } | { help: false; json: boolean } | { problem: string };

export function parseAdminArgs(argv: readonly string[]): Args {
  let command: string | undefined;
  let json = false;
  for (const a of argv) {
    if (a === '--help' || a === '-h') return { help: true };
    if (a === '--json') json = true;
    else if (a.startsWith('-')) return { problem: `unknown option "${a}"` };
    else if (command === undefined) command = a;
    else return { problem: `unexpected argument "${a}"` };
  }
  if (command === undefined) return { problem: 'no command given' };
  if (command !== 'status') return { problem: `unknown command "${command}"` };
  return { help: false, json };
}

const EMPTY =
  'The store is empty: no workspace has installed the app, no key is connected and no digest is subscribed.';

function json(report: StatusReport, store: string, now: Date): string {
  const doc = { generatedAt: isoUtc(now), store, empty: isEmpty(report), ...report };
  // Dates in UTC ISO to the second, as in the text (`this[key]` is the value before Date's own toJSON).
  const replacer = function (this: Record<string, unknown>, key: string, value: unknown) {
    const original = this[key];
    return original instanceof Date ? isoUtc(original) : value;
  };
  return `${JSON.stringify(doc, replacer, 2)}\n`;
}

export async function runAdmin(
  argv: readonly string[],
  env: Record<string, string | undefined>,
  io: AdminIo,
): Promise<number> {
  const args = parseAdminArgs(argv);
  if ('problem' in args) {
    io.err(`linen-admin: ${args.problem}. ${USAGE}\n`);
    return 2;
  }
  if (args.help) {
    io.out(`${USAGE}\n`);
    return 0;
  }
  const now = (io.now ?? (() => new Date()))();
  let opened: Awaited<ReturnType<typeof openStoreForAdmin>>;
  try {
    opened = await openStoreForAdmin(env);
  } catch (err) {
    if (!(err instanceof StoreNotOpenedError)) throw err;
    io.err(`linen-admin: ${err.message}\n`);
    return 1;
  }
  let report: StatusReport;
  if (opened.kind === 'absent') {
    report = {
      workspaces: [],
      connections: [],
      environmentKey: null,
      subscriptions: [],
      failing: [],
      alerts: [],
      failingAlerts: [],
    };
  } else if (opened.kind === 'held') {
    try {
      report = await askRunningService(opened);
    } catch (err) {
      if (!(err instanceof ServiceNotAskedError)) throw err;
      io.err(`linen-admin: ${err.message}\n`);
      return 1;
    }
  } else {
    try {
      report = await readStatus(opened.db, env);
    } catch (err) {
      io.err(`linen-admin: Cannot read the store (${opened.where}): ${(err as Error).message}\n`);
      return 1;
    } finally {
      await opened.db.close().catch(() => {});
    }
  }
  if (args.json) io.out(json(report, opened.where, now));
  else if (isEmpty(report)) io.out(`${EMPTY} (${opened.where})\n`);
  else io.out(renderText(report, opened.where, now));
  return 0;
}
