/**
 * The data a sandbox serves, as a sequence of versions: the seeded data, then one new version per change.
 *
 * A version is never modified. A change builds the next one by copying the arrays and records it touches and
 * sharing everything else, so the seeded data (cached and shared by every sandbox of the process) stays as
 * generated, a reset is going back to it, and each request reads one version from start to end. The routes'
 * sorted lists and indexes are memoized per version (server/scope.ts `memo`), so a new version gets fresh ones.
 */
import { fromZonedTime } from 'date-fns-tz';
import type { SandboxData } from '../model.ts';

export class DataStore {
  private version: SandboxData;

  constructor(readonly seeded: SandboxData) {
    this.version = seeded;
  }

  /** The version requests read now. */
  get current(): SandboxData {
    return this.version;
  }

  /** Makes `next` (built from `current`) the version served from now on. */
  commit(next: SandboxData): void {
    this.version = next;
  }

  reset(): void {
    this.version = this.seeded;
  }
}

/**
 * The instants changes are stamped with. The seeded data is "as of" an instant (noon of a pinned day, otherwise
 * the moment the sandbox started) and nothing seeded lies after it, so changes happen after it too: at that
 * instant plus the wall-clock time since the sandbox started. Each instant is at least 1 ms after the previous
 * one, so the events of one change (a ticket acknowledged, then in progress) keep their order.
 */
export class ChangeClock {
  private last = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly now: () => number,
    private readonly asOf: number,
    /** When the sandbox started (epoch ms, wall clock); unpinned, the data is as of that moment. */
    private readonly startedAt: number,
  ) {}

  next(): number {
    const at = Math.max(this.asOf + (this.now() - this.startedAt), this.last + 1);
    this.last = at;
    return at;
  }
}

/** Noon of an org-local day: the instant a pinned day is seeded as of. */
export function noonOf(day: string, timeZone: string): number {
  return fromZonedTime(`${day}T12:00:00`, timeZone).getTime();
}
