/**
 * The command's end of the status socket (status-socket.ts): a service that holds the embedded store is asked for
 * the report it reads with `readStatus`, and the answer is turned back into a `StatusReport` (its dates revived), to
 * be printed exactly as one read from the folder. Whatever goes wrong is one sentence saying what the operator can
 * do: the process holding the folder serves no socket (a version before it, the console, `npm run reencrypt`, or a
 * service starting or stopping), a socket nobody answers on (left by a service that was killed), a socket this user
 * may not open, a service that does not answer in time or cannot read its store.
 */
import { request } from 'node:http';
import type { StatusReport } from './status.ts';
import { STATUS_PATH, STATUS_WIRE, socketPathProblem } from './status-socket.ts';

/** The service could not be asked; `message` is the sentence for the operator. */
export class ServiceNotAskedError extends Error {
  override name = 'ServiceNotAskedError';
}

/** How long the service has to answer: a report is a few queries, even on a busy store. */
const ANSWER_WITHIN_MS = 15_000;

/** A type as JSON carries it: each Date an ISO string. */
type OverWire<T> = T extends Date
  ? string
  : T extends readonly (infer U)[]
    ? OverWire<U>[]
    : T extends object
      ? { [K in keyof T]: OverWire<T[K]> }
      : T;

const at = (v: string): Date => {
  const d = new Date(v);
  if (Number.isNaN(d.getTime())) throw new TypeError(`not a time: ${v}`);
  return d;
};
const atOrNull = (v: string | null): Date | null => (v === null ? null : at(v));

/** The report as the service sent it, with its dates as Dates again; a malformed one throws. */
function revived(wire: OverWire<StatusReport>): StatusReport {
  return {
    workspaces: wire.workspaces.map((w) => ({ ...w, installedAt: atOrNull(w.installedAt) })),
    connections: wire.connections.map((c) => ({
      ...c,
      connectedAt: at(c.connectedAt),
      lastAnsweredAt: atOrNull(c.lastAnsweredAt),
    })),
    environmentKey: wire.environmentKey,
    subscriptions: wire.subscriptions.map((s) => ({
      ...s,
      nextRunAt: atOrNull(s.nextRunAt),
      lastRun: s.lastRun && { ...s.lastRun, at: at(s.lastRun.at) },
    })),
    failing: wire.failing.map((f) => ({ ...f, since: at(f.since) })),
    // A service of a version that listed no alerts sends none: its report is read without them.
    alerts: (wire.alerts ?? []).map((a) => ({
      ...a,
      lastFiredAt: atOrNull(a.lastFiredAt),
      lastCheck: a.lastCheck && { ...a.lastCheck, at: atOrNull(a.lastCheck.at), nextAt: at(a.lastCheck.nextAt) },
    })),
    failingAlerts: (wire.failingAlerts ?? []).map((f) => ({ ...f, since: at(f.since) })),
  };
}

interface Answer {
  status: number;
  body: string;
}

function get(socketPath: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    // agent: false: one connection, closed after the answer (with Node's agent a refused socket reads as EPIPE).
    const req = request({ socketPath, path: STATUS_PATH, method: 'GET', agent: false }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      res.on('error', reject);
    });
    req.setTimeout(ANSWER_WITHIN_MS, () => req.destroy(Object.assign(new Error('timed out'), { code: 'ETIMEDOUT' })));
    req.on('error', reject);
    req.end();
  });
}

export interface HeldStore {
  /** The store's folder. */
  folder: string;
  /** The process holding it (from the folder's lock). */
  pid: number;
  /** Where that process answers, if it is a service of this version. */
  socket: string;
}

/** Asks the process holding the folder for the report; throws ServiceNotAskedError with the sentence. */
export async function askRunningService({ folder, pid, socket }: HeldStore): Promise<StatusReport> {
  const tooLong = socketPathProblem(socket);
  if (tooLong)
    throw new ServiceNotAskedError(
      `The store in ${folder} is in use by process ${pid}, and its status socket cannot be reached: ${tooLong}.`,
    );
  let answer: Answer;
  try {
    answer = await get(socket);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    switch (code) {
      // No socket: the holder is a bot of a version before it, the console, `npm run reencrypt`, or a bot still
      // starting (the store opens before the socket is made); stopping it is the way, as it always was.
      case 'ENOENT':
        throw new ServiceNotAskedError(
          `The store in ${folder} is in use by a running bot (pid ${pid}), and PGlite is one process's database: stop the bot and run this again, or run the bot on PostgreSQL (DATABASE_URL) and point this command at the same database.`,
        );
      case 'ECONNREFUSED':
      case 'EPIPE':
      case 'ECONNRESET':
        throw new ServiceNotAskedError(
          `The store in ${folder} is in use by process ${pid}, but nothing answers on ${socket} (${code}; a socket left by a service that did not stop cleanly): restart the service, or stop process ${pid} and run this again.`,
        );
      case 'EACCES':
      case 'EPERM':
        throw new ServiceNotAskedError(
          `The running service (pid ${pid}) cannot be asked for its status: ${socket} is open only to the user the service runs as (${code}); run this command as that user.`,
        );
      case 'ETIMEDOUT':
        throw new ServiceNotAskedError(
          `The running service (pid ${pid}) did not answer on ${socket} within ${ANSWER_WITHIN_MS / 1000} s: run this again in a moment, and if it still does not answer, see the service's log.`,
        );
      default:
        throw new ServiceNotAskedError(
          `The running service (pid ${pid}) cannot be asked for its status on ${socket}: ${code ?? (err as Error).message}.`,
        );
    }
  }
  let doc: { service?: unknown; version?: unknown; report?: OverWire<StatusReport>; error?: unknown } | undefined;
  try {
    doc = JSON.parse(answer.body);
  } catch {
    doc = undefined;
  }
  if (answer.status === 500 && typeof doc?.error === 'string')
    throw new ServiceNotAskedError(
      `The running service (pid ${pid}) could not read its store (${folder}): ${doc.error}`,
    );
  if (
    answer.status === 200 &&
    doc?.service === STATUS_WIRE.service &&
    doc.version === STATUS_WIRE.version &&
    doc.report
  ) {
    try {
      return revived(doc.report);
    } catch {
      // read as any other answer this command does not understand
    }
  }
  throw new ServiceNotAskedError(
    `The process holding ${folder} (pid ${pid}) answered on ${socket} with something this command does not read (HTTP ${answer.status}): run the command of the same version as the service.`,
  );
}
