/**
 * A cell's view of the world in Excel: the session's listings (kept in memory, shared in flight by every cell of
 * the runtime) and dates as serial numbers. The functions' work (shared/cells/) runs on it with `runAsync`.
 */
import { listingRequest } from '../../shared/cells/args.ts';
import { CellContext, type Listing, type Reader } from '../../shared/cells/context.ts';
import type { Cell } from '../../shared/cells/values.ts';
import { type Operation, waitFor } from '../../shared/core/effects.ts';
import { runAsync } from '../../shared/core/run.ts';
import { collect } from '../../shared/core/walk.ts';
import { type DateStyle, dayCell, timeCell } from './date-cells.ts';
import { CELL_BUDGET_MS, type Session } from './session.ts';

type Row = Record<string, unknown>;

export class ExcelContext extends CellContext {
  readonly #session: Session;
  readonly #dates: DateStyle;
  readonly #started = Date.now();

  constructor(session: Session, dates: DateStyle) {
    // Excel passes dates as serial numbers, which name a day in no timezone: the organization's is the only one.
    super({ org: session.timeZone, sheet: session.timeZone });
    this.#session = session;
    this.#dates = dates;
  }

  #remaining(): number {
    return Math.max(1_000, this.#started + CELL_BUDGET_MS - Date.now());
  }

  rows<P extends Row, T extends Row>(name: string, params: P, list: Listing<P, T>): Operation<T[]> {
    const { request, clean } = listingRequest(name, params);
    return this.#shared(request, () => collect(list(this.#session.api)(clean as P), { budgetMs: this.#remaining() }));
  }

  cached<T extends Row>(name: string, params: Record<string, unknown>, fetch: (r: Reader) => Operation<T[]>) {
    return this.#shared(`${name} ${JSON.stringify(params)}`, () =>
      fetch(this.reader(this.#session.api, this.#remaining())),
    );
  }

  /** The listing kept, in flight, or walked now by this cell for every cell that asks meanwhile. */
  #shared<T extends Row>(request: string, walk: () => Operation<T[]>): Operation<T[]> {
    const { listings, transport } = this.#session;
    return waitFor(
      (signal) =>
        listings.wait(request, (flight) => runAsync(walk(), transport, { signal: flight }), signal) as Promise<T[]>,
    );
  }

  protected peek<T extends Row>(request: string): T[] | null {
    return this.#session.listings.peek(request) as T[] | null;
  }

  dayCell(day: string | null | undefined): Cell {
    return dayCell(day, this.#dates);
  }

  timeCell(iso: string | null | undefined): Cell {
    return timeCell(iso, this.zones.org, this.#dates);
  }
}
