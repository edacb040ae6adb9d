/**
 * Apps Script, as far as the add-on uses it, for running the built Code.js in a `vm` context the way
 * Apps Script does: one global scope holding every top-level declaration of the project's files, no
 * `require`, `process`, `fetch`, timers or TextDecoder; only the services below.
 *
 * - UrlFetchApp does real, synchronous HTTP (a SyncTransport such as test/support/worker-sandbox.ts' BlockingTransport),
 *   throws on failures and on HTTP errors unless `muteHttpExceptions`, and records every URL and header set.
 * - CacheService, LockService and PropertiesService keep their state in a Backing (apps-script-store.ts), so
 *   several executions, even in several threads, share one cache, one lock and one set of properties.
 * - A custom-function execution reads properties but may not set them and has no UI, as in Sheets.
 */

import { createHash, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import vm from 'node:vm';
import type { HttpRequest, HttpResponse } from '../../shared/index.ts';
import { Charts, type SpreadsheetWorld, spreadsheetGlobals } from './apps-script-spreadsheet.ts';
import type { Backing } from './apps-script-store.ts';

export interface SyncHttp {
  request(req: HttpRequest, options: { timeoutMs: number }): HttpResponse;
  /** Several requests at once (`UrlFetchApp.fetchAll`); a transport without it sends them one after another. */
  requestAll?(reqs: HttpRequest[], options: { timeoutMs: number }): (HttpResponse | Error)[];
}

export interface FetchRecord {
  url: string;
  headers: Record<string, string>;
  status: number | 'failed';
  /** Which `fetchAll` call sent it (absent for `fetch`). */
  batch?: number;
}

/** An installable trigger as ScriptApp keeps it. */
export interface FakeTrigger {
  id: string;
  handler: string;
  /** Who created it: it runs as this user, with this user's properties. */
  owner: string;
  /** The spreadsheet it was created in. */
  document: string;
  /** The clock settings given to the builder (everyHours, atHour, nearMinute, everyDays, inTimezone...). */
  clock: Record<string, unknown>;
}

export interface GasWorld extends SpreadsheetWorld {
  backing: Backing;
  http: SyncHttp;
  /** Every UrlFetchApp.fetch, in order, across executions. */
  fetches: FetchRecord[];
  /** How many `fetchAll` calls were made. */
  fetchAllCalls: number;
  scriptTimeZone: string;
  /** Directory of the built HTML files (HtmlService.createHtmlOutputFromFile). */
  htmlDir: string;
  /** Who owns the spreadsheet (custom functions read this user's properties) and who uses the menu. */
  activeUser: string;
  /** Installable triggers of the project, every user's. */
  triggers: FakeTrigger[];
  /** Users who must authorize the add-on again (after a new scope): `getAuthorizationInfo` says REQUIRED. */
  needsAuthorization: Set<string>;
  /**
   * A run outside any document (a standalone script or web app): document properties, cache and lock are
   * null and there is no active spreadsheet.
   */
  documentless: boolean;
  /**
   * A shifted clock for the executions (their `Date` and `Date.now`): `offsetMs` ahead of the real time, moving
   * `perFetchMs` further at each UrlFetchApp call (an API that takes that long). With `virtualSleep`,
   * `Utilities.sleep` moves it instead of blocking, so retries and waits of any length cost no real time while
   * the execution's own `Date.now` sees them. Absent: the real clock.
   */
  clock?: { offsetMs: number; perFetchMs: number; virtualSleep?: boolean };
  log: string[];
}

export function createWorld(init: Partial<GasWorld> & { backing: Backing; http: SyncHttp; htmlDir: string }): GasWorld {
  return {
    fetches: [],
    fetchAllCalls: 0,
    spreadsheetId: 'sheet-1',
    spreadsheetTimeZone: 'America/Chicago',
    scriptTimeZone: 'America/Chicago',
    sheets: [],
    owner: 'owner@example.com',
    activeUser: 'owner@example.com',
    ui: [],
    formulaWrites: [],
    triggers: [],
    needsAuthorization: new Set(),
    documentless: false,
    log: [],
    ...init,
  };
}

/**
 * custom: a cell (the owner's user properties, read-only, no UI); menu: a menu item, dialog or sidebar call (the
 * user at the keyboard); trigger: an installable trigger, running as its creator without UI.
 */
export type ExecutionKind = 'custom' | 'menu' | 'trigger';

const blockFor = (ms: number) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, Math.max(0, ms));

const toSigned = (bytes: Uint8Array) => Array.from(bytes, (b) => (b > 127 ? b - 256 : b));

function titleCase(name: string): string {
  return name.replace(/(^|-)([a-z])/g, (_, d: string, c: string) => d + c.toUpperCase());
}

/** The Apps Script globals of one execution. */
export function appsScriptGlobals(
  world: GasWorld,
  kind: ExecutionKind,
  executionId: string,
  /** Who the execution runs as (a trigger: its creator); default the owner for cells, else the active user. */
  runAs?: string,
): Record<string, unknown> {
  const custom = kind === 'custom';
  const { backing } = world;
  const user = runAs ?? (custom ? world.owner : world.activeUser);
  const doc = <T>(make: () => T): T | null => (world.documentless ? null : make());

  const properties = (scope: string) => {
    const guard = (method: string) => {
      if (custom)
        throw new Error(
          `Exception: You do not have permission to call ${method}. Required permissions: (none in a custom function)`,
        );
    };
    return {
      getProperty: (k: string) => backing.propsGet(scope)[k] ?? null,
      getProperties: () => backing.propsGet(scope),
      getKeys: () => Object.keys(backing.propsGet(scope)),
      setProperty(k: string, v: string) {
        guard('setProperty');
        backing.propsSet(scope, k, String(v));
        return this;
      },
      setProperties(values: Record<string, string>) {
        guard('setProperties');
        for (const [k, v] of Object.entries(values)) backing.propsSet(scope, k, String(v));
        return this;
      },
      deleteProperty(k: string) {
        guard('deleteProperty');
        backing.propsSet(scope, k, null);
        return this;
      },
    };
  };

  const cache = (scope: string) => ({
    get: (k: string) => backing.cacheGet(scope, [k])[k] ?? null,
    getAll: (keys: string[]) => backing.cacheGet(scope, [...keys]),
    put: (k: string, v: string, ttl = 600) => backing.cachePut(scope, { [k]: v }, ttl),
    putAll: (values: Record<string, string>, ttl = 600) => backing.cachePut(scope, { ...values }, ttl),
    remove: (k: string) => backing.cacheRemove(scope, [k]),
    removeAll: (keys: string[]) => backing.cacheRemove(scope, [...keys]),
  });

  const lock = (name: string) => {
    let held = false;
    const tryLock = (timeoutMs: number) => {
      const until = Date.now() + Math.max(0, timeoutMs);
      for (;;) {
        if (backing.lockTry(name, executionId)) {
          held = true;
          return true;
        }
        if (Date.now() >= until) return false;
        blockFor(Math.min(20, until - Date.now()));
      }
    };
    return {
      tryLock,
      waitLock(timeoutMs: number) {
        if (!tryLock(timeoutMs))
          throw new Error('Exception: Lock timeout: another process was holding the lock for too long.');
      },
      releaseLock() {
        backing.lockRelease(name, executionId);
        held = false;
      },
      hasLock: () => held,
    };
  };

  const record = (url: string, params: { method?: string; headers?: Record<string, string> }, batch?: number) => {
    if (typeof url !== 'string' || !/^https?:\/\//.test(url)) throw new Error(`Exception: Invalid argument: ${url}`);
    const method = (params.method ?? 'get').toUpperCase();
    if (method !== 'GET') throw new Error('the add-on only ever sends GET');
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(params.headers ?? {})) headers[k.toLowerCase()] = String(v);
    const entry: FetchRecord = { url, headers, status: 'failed', ...(batch !== undefined ? { batch } : {}) };
    if (world.clock && (batch === undefined || world.fetches.at(-1)?.batch !== batch)) {
      world.clock.offsetMs += world.clock.perFetchMs;
    }
    world.fetches.push(entry);
    return entry;
  };
  const answer = (url: string, res: HttpResponse, muted: boolean | undefined) => {
    const bytes = typeof res.body === 'string' ? new Uint8Array(Buffer.from(res.body)) : res.body;
    if (res.status >= 400 && !muted) {
      throw new Error(`Exception: Request failed for ${new URL(url).origin} returned code ${res.status}.`);
    }
    const allHeaders: Record<string, string> = {};
    for (const [k, v] of Object.entries(res.headers)) allHeaders[titleCase(k)] = v;
    return {
      getResponseCode: () => res.status,
      getAllHeaders: () => ({ ...allHeaders }),
      getHeaders: () => ({ ...allHeaders }),
      getContent: () => toSigned(bytes),
      getContentText: () => Buffer.from(bytes).toString('utf8'),
    };
  };
  type FetchParams = { method?: string; headers?: Record<string, string>; muteHttpExceptions?: boolean };
  const UrlFetchApp = {
    fetch(url: string, params: FetchParams = {}) {
      const entry = record(url, params);
      let res: HttpResponse;
      try {
        res = world.http.request(
          { method: 'GET', url, headers: entry.headers, responseType: 'bytes' },
          { timeoutMs: 30_000 },
        );
      } catch {
        throw new Error(`Exception: Address unavailable: ${url}`);
      }
      entry.status = res.status;
      return answer(url, res, params.muteHttpExceptions);
    },
    /**
     * The requests go out together and the responses come back in request order
     * (https://developers.google.com/apps-script/reference/url-fetch/url-fetch-app#fetchAll(Object)). A request
     * that fails on the network fails the whole call; an error status does too unless that request set
     * `muteHttpExceptions`.
     */
    fetchAll(requests: (string | (FetchParams & { url: string }))[]) {
      const batch = world.fetchAllCalls++;
      const items = requests.map((r) => (typeof r === 'string' ? { url: r } : r));
      const entries = items.map((r) => record(r.url, r, batch));
      const reqs: HttpRequest[] = entries.map((e) => ({
        method: 'GET',
        url: e.url,
        headers: e.headers,
        responseType: 'bytes',
      }));
      const results = world.http.requestAll
        ? world.http.requestAll(reqs, { timeoutMs: 30_000 })
        : reqs.map((req) => {
            try {
              return world.http.request(req, { timeoutMs: 30_000 });
            } catch (e) {
              return e instanceof Error ? e : new Error(String(e));
            }
          });
      results.forEach((r, i) => {
        if (!(r instanceof Error)) entries[i]!.status = r.status;
      });
      const failed = results.findIndex((r) => r instanceof Error);
      if (failed >= 0) throw new Error(`Exception: Address unavailable: ${items[failed]!.url}`);
      return results.map((r, i) => answer(items[i]!.url, r as HttpResponse, items[i]!.muteHttpExceptions));
    },
  };

  const algorithms: Record<string, string> = { SHA_256: 'sha256', SHA_1: 'sha1', MD5: 'md5', SHA_512: 'sha512' };
  const Utilities = {
    DigestAlgorithm: { SHA_256: 'SHA_256', SHA_1: 'SHA_1', MD5: 'MD5', SHA_512: 'SHA_512' },
    Charset: { UTF_8: 'UTF_8', US_ASCII: 'US_ASCII' },
    sleep(ms: number) {
      if (!(ms >= 0) || ms > 300_000) throw new Error('Exception: Invalid argument: milliseconds');
      if (world.clock?.virtualSleep) world.clock.offsetMs += ms;
      else blockFor(ms);
    },
    computeDigest(algorithm: string, value: string | number[], _charset?: string) {
      const a = algorithms[algorithm];
      if (!a) throw new Error(`Exception: Invalid argument: algorithm`);
      const data = typeof value === 'string' ? Buffer.from(value, 'utf8') : Buffer.from(value.map((b) => b & 0xff));
      return toSigned(createHash(a).update(data).digest());
    },
    base64Encode: (data: string | number[]) =>
      Buffer.from(typeof data === 'string' ? data : data.map((b) => b & 0xff)).toString('base64'),
    base64EncodeWebSafe: (data: string | number[]) =>
      Buffer.from(typeof data === 'string' ? data : data.map((b) => b & 0xff))
        .toString('base64')
        .replace(/\+/g, '-')
        .replace(/\//g, '_'),
    base64Decode: (s: string) => toSigned(Buffer.from(s, 'base64')),
    newBlob: (data: string | number[]) => {
      const buf = Buffer.from(typeof data === 'string' ? data : data.map((b) => b & 0xff));
      return { getBytes: () => toSigned(buf), getDataAsString: () => buf.toString('utf8') };
    },
  };

  const noUi = (): never => {
    throw new Error('Exception: Cannot call SpreadsheetApp.getUi() from this context.');
  };
  const sheets = spreadsheetGlobals(world, { readOnly: custom, noUi });
  const menu = (title: string) => {
    const items: (string | [string, string] | { submenu: string; items: unknown[] })[] = [];
    const m = {
      addItem: (caption: string, fn: string) => {
        items.push([caption, fn]);
        return m;
      },
      addSeparator: () => {
        items.push('---');
        return m;
      },
      addSubMenu: (sub: { __items: typeof items; __title: string }) => {
        items.push({ submenu: sub.__title, items: sub.__items });
        return m;
      },
      addToUi: () => world.ui.push({ kind: 'menu', detail: { title, items } }),
      __items: items,
      __title: title,
    };
    return m;
  };
  const ui = {
    createAddonMenu: () => menu('add-on'),
    createMenu: (title: string) => menu(title),
    showModalDialog: (html: { getContent(): string }, title: string) =>
      world.ui.push({ kind: 'dialog', detail: { title, content: html.getContent() } }),
    showSidebar: (html: { getContent(): string; getTitle(): string }) =>
      world.ui.push({ kind: 'sidebar', detail: { title: html.getTitle(), content: html.getContent() } }),
    alert: (...args: unknown[]) => world.ui.push({ kind: 'alert', detail: args }),
  };
  // Triggers have no UI: "Cannot call SpreadsheetApp.getUi() from this context."
  const SpreadsheetApp = {
    ...sheets.SpreadsheetApp,
    getActiveSpreadsheet: () => (world.documentless ? null : sheets.spreadsheet),
    getActive: () => (world.documentless ? null : sheets.spreadsheet),
    getUi: () => (kind === 'menu' ? ui : noUi()),
  };

  const htmlOutput = (content: string) => {
    let text = content;
    let title = '';
    const out = {
      append: (s: string) => {
        text += s;
        return out;
      },
      setWidth: () => out,
      setHeight: () => out,
      setTitle: (t: string) => {
        title = t;
        return out;
      },
      getTitle: () => title,
      getContent: () => text,
    };
    return out;
  };
  const HtmlService = {
    createHtmlOutputFromFile(name: string) {
      if (custom) throw new Error('Exception: HtmlService is not available in a custom function');
      return htmlOutput(readFileSync(join(world.htmlDir, `${name.replace(/\.html$/, '')}.html`), 'utf8'));
    },
    createHtmlOutput: (html = '') => htmlOutput(html),
  };

  const userApi = (email: string) => ({ getEmail: () => email });
  return {
    UrlFetchApp,
    Utilities,
    CacheService: {
      getDocumentCache: () => doc(() => cache(`doc:${world.spreadsheetId}`)),
      getScriptCache: () => cache('script'),
      getUserCache: () => cache(`user:${user}`),
    },
    PropertiesService: {
      getDocumentProperties: () => doc(() => properties(`doc:${world.spreadsheetId}`)),
      getScriptProperties: () => properties('script'),
      // A custom function reads the spreadsheet owner's user properties; a trigger its creator's.
      getUserProperties: () => properties(`user:${user}`),
    },
    LockService: {
      getDocumentLock: () => doc(() => lock(`doc:${world.spreadsheetId}`)),
      getScriptLock: () => lock('script'),
      getUserLock: () => lock(`user:${user}`),
    },
    SpreadsheetApp,
    Charts,
    HtmlService,
    ScriptApp: scriptApp(world, kind, user),
    Session: {
      getScriptTimeZone: () => world.scriptTimeZone,
      // A custom function runs anonymously: no email (https://developers.google.com/apps-script/reference/base/user#getEmail()).
      getActiveUser: () => userApi(custom ? '' : user),
      getEffectiveUser: () => userApi(custom ? '' : user),
      getTemporaryActiveUserKey: () => 'temp-key',
    },
    Logger: { log: (...a: unknown[]) => world.log.push(a.map(String).join(' ')) },
    console: {
      log: (...a: unknown[]) => world.log.push(a.map(String).join(' ')),
      info: (...a: unknown[]) => world.log.push(a.map(String).join(' ')),
      warn: (...a: unknown[]) => world.log.push(a.map(String).join(' ')),
      error: (...a: unknown[]) => world.log.push(a.map(String).join(' ')),
    },
  };
}

/** The project's files, compiled once: Code.js (and any other .js file) in load order. */
export function loadProject(dir: string, files = ['Code.js']): vm.Script[] {
  return files.map((f) => new vm.Script(readFileSync(join(dir, f), 'utf8'), { filename: f }));
}

export interface Execution {
  context: vm.Context;
  /** Call a top-level function of the project; an exception comes back as `{ error }` with its message. */
  call(name: string, ...args: unknown[]): { value?: unknown; error?: string };
  /** Build a value inside the execution's realm (e.g. `(ms) => new Date(ms)`). */
  evaluate<T>(source: string): T;
  end(): void;
}

/** `Date` of an execution whose clock is shifted: the current time comes from the host, the rest is Date. */
const SHIFTED_DATE = `(() => {
  const Real = Date, now = globalThis.__hostNow;
  delete globalThis.__hostNow;
  function ShiftedDate(...args) {
    if (!new.target) return new Real(now()).toString();
    return args.length ? new Real(...args) : new Real(now());
  }
  ShiftedDate.prototype = Real.prototype;
  ShiftedDate.now = now;
  ShiftedDate.UTC = Real.UTC;
  ShiftedDate.parse = Real.parse;
  globalThis.Date = ShiftedDate;
})();`;

/** One execution: a fresh global scope with the services, then every file of the project run in it. */
export function startExecution(
  world: GasWorld,
  scripts: vm.Script[],
  kind: ExecutionKind,
  options: { runAs?: string } = {},
): Execution {
  const id = randomUUID();
  const context = vm.createContext(appsScriptGlobals(world, kind, id, options.runAs));
  if (world.clock) {
    const clock = world.clock;
    context.__hostNow = () => Date.now() + clock.offsetMs;
    vm.runInContext(SHIFTED_DATE, context);
  }
  for (const s of scripts) s.runInContext(context);
  return {
    context,
    call(name, ...args) {
      const fn = vm.runInContext(name, context) as (...a: unknown[]) => unknown;
      try {
        return { value: fn(...args) };
      } catch (e) {
        return {
          error:
            e instanceof Error || (e && typeof e === 'object' && 'message' in e)
              ? String((e as Error).message)
              : String(e),
        };
      }
    },
    evaluate: <T>(source: string) => vm.runInContext(source, context) as T,
    end: () => world.backing.lockReleaseAll(id),
  };
}

/** Run one function as its own execution (as Sheets runs each custom-function cell). */
export function runOnce(world: GasWorld, scripts: vm.Script[], kind: ExecutionKind, name: string, ...args: unknown[]) {
  const ex = startExecution(world, scripts, kind);
  try {
    return ex.call(name, ...args);
  } finally {
    ex.end();
  }
}

/** A value from the vm realm as plain host values: arrays, Dates (as host Dates), primitives. */
export function plain(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(plain);
  if (Object.prototype.toString.call(v) === '[object Date]') return new Date((v as Date).getTime());
  return v;
}

const AUTH_MODES = ['NONE', 'CUSTOM_FUNCTION', 'LIMITED', 'FULL'] as const;

/**
 * ScriptApp with the rules Google sets for editor add-ons
 * (https://developers.google.com/workspace/add-ons/concepts/editor-triggers): "Each add-on can only have one
 * trigger of each type, per user, per document", and "Time-driven triggers cannot run more frequently than once
 * per hour". `getProjectTriggers()` lists the current user's triggers only ("A given account cannot see triggers
 * installed from a second account"). A custom function may not manage triggers.
 */
function scriptApp(world: GasWorld, kind: ExecutionKind, user: string) {
  const deny = () => {
    if (kind === 'custom') throw new Error('Exception: You do not have permission to call ScriptApp.newTrigger.');
  };
  const triggerApi = (t: FakeTrigger) => ({
    getUniqueId: () => t.id,
    getHandlerFunction: () => t.handler,
    getEventType: () => 'CLOCK',
    getTriggerSource: () => 'CLOCK',
    // "For clock events this returns null."
    getTriggerSourceId: () => null,
    __fake: t,
  });
  const clockBuilder = (handler: string) => {
    const clock: Record<string, unknown> = {};
    const b = {
      everyMinutes() {
        throw new Error('Exception: Add-ons may not create time-driven triggers that run more than once an hour.');
      },
      everyHours(n: number) {
        if (![1, 2, 4, 6, 8, 12].includes(n)) throw new Error('Exception: Invalid argument: everyHours');
        clock.everyHours = n;
        return b;
      },
      everyDays(n: number) {
        clock.everyDays = n;
        return b;
      },
      atHour(h: number) {
        clock.atHour = h;
        return b;
      },
      nearMinute(m: number) {
        clock.nearMinute = m;
        return b;
      },
      inTimezone(tz: string) {
        clock.inTimezone = tz;
        return b;
      },
      create() {
        deny();
        if (clock.everyHours === undefined && clock.everyDays === undefined) {
          throw new Error('Exception: The trigger needs a frequency (everyHours or everyDays).');
        }
        if (world.triggers.some((t) => t.owner === user && t.document === world.spreadsheetId)) {
          throw new Error(
            'Exception: This add-on has created too many time-based triggers in this document for this Google user account.',
          );
        }
        const t: FakeTrigger = { id: randomUUID(), handler, owner: user, document: world.spreadsheetId, clock };
        world.triggers.push(t);
        return triggerApi(t);
      },
    };
    return b;
  };
  return {
    AuthMode: Object.fromEntries(AUTH_MODES.map((m) => [m, m])),
    AuthorizationStatus: { REQUIRED: 'REQUIRED', NOT_REQUIRED: 'NOT_REQUIRED' },
    EventType: { CLOCK: 'CLOCK' },
    getAuthorizationInfo: () => ({
      getAuthorizationStatus: () => (world.needsAuthorization.has(user) ? 'REQUIRED' : 'NOT_REQUIRED'),
    }),
    newTrigger: (handler: string) => ({ timeBased: () => clockBuilder(handler) }),
    getProjectTriggers: () => {
      deny();
      return world.triggers.filter((t) => t.owner === user).map(triggerApi);
    },
    deleteTrigger(t: { __fake: FakeTrigger }) {
      deny();
      if (t.__fake.owner !== user) throw new Error('Exception: You cannot delete a trigger another user created.');
      world.triggers = world.triggers.filter((x) => x.id !== t.__fake.id);
    },
  };
}
