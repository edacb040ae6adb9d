/**
 * The add-in's one state in Excel's shared runtime, where the task pane and every cell run: the saved settings
 * (read from `OfficeRuntime.storage` once, then kept in memory) and the session of the saved key.
 */

import { CellSentence } from '../../shared/cells/messages.ts';
import type { AsyncTransport } from '../../shared/core/effects.ts';
import { isValidTimeZone } from '../../shared/dates.ts';
import { Session } from './session.ts';
import { forgetKey, machineTimeZone, readSaved, type Saved, save } from './storage.ts';

/** Where a person sets the key, as the cells' sentences name it. */
export const SET_KEY = 'the task pane (Home > Linen Connect)';

/** No key saved: the one sentence that says how to connect. */
export class MissingKey extends CellSentence {
  constructor() {
    super(`No Linen API key is set in Excel on this computer: open ${SET_KEY}, paste your key and choose Connect.`);
  }
}

export class Runtime {
  readonly origin: string;
  readonly transport: AsyncTransport;
  #saved: Promise<Saved> | undefined;
  #session: Session | undefined;

  constructor(o: { origin: string; transport: AsyncTransport }) {
    this.origin = o.origin;
    this.transport = o.transport;
  }

  /** The saved settings, read once. */
  saved(): Promise<Saved> {
    this.#saved ??= readSaved().catch((e: unknown) => {
      this.#saved = undefined; // a storage that failed once may answer next time
      throw e;
    });
    return this.#saved;
  }

  /** The organization's timezone: the saved one, else the machine's. */
  timeZoneOf(saved: Saved): string {
    return saved.timeZone && isValidTimeZone(saved.timeZone) ? saved.timeZone : machineTimeZone();
  }

  /** The session of the saved key; a cell without one says how to connect. */
  async session(): Promise<Session> {
    const saved = await this.saved();
    if (!saved.apiKey) throw new MissingKey();
    const timeZone = this.timeZoneOf(saved);
    if (this.#session?.apiKey !== saved.apiKey || this.#session.timeZone !== timeZone)
      this.#session = this.sessionFor(saved.apiKey, timeZone);
    return this.#session;
  }

  /** A session for a key not saved yet (the task pane checks a key with it). */
  sessionFor(apiKey: string, timeZone: string): Session {
    return new Session({ apiKey, timeZone, origin: this.origin, transport: this.transport });
  }

  /** Keep a checked key and timezone; the cells use them from now on. */
  async connect(apiKey: string, timeZone: string): Promise<void> {
    await save({ apiKey, timeZone });
    this.#saved = Promise.resolve({ apiKey, timeZone });
    this.#session = undefined;
  }

  /** Forget the key on this machine; the cells then say how to connect. */
  async disconnect(): Promise<void> {
    const previous = await this.saved().catch(() => null);
    await forgetKey();
    this.#saved = Promise.resolve({ apiKey: null, timeZone: previous?.timeZone ?? null });
    this.#session = undefined;
  }

  /** Drop every answer kept: the next calculation fetches afresh. */
  refresh(): void {
    this.#session?.listings.clear();
  }
}
