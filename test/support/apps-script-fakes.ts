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
import type { Backing } from './apps-script-store.ts';

export interface SyncHttp {
  request(req: HttpRequest, options: { timeoutMs: number }): HttpResponse;
}

export interface FetchRecord {
  url: string;
  headers: Record<string, string>;
  status: number | 'failed';
}

export interface FakeSheet {
  name: string;
  /** Formulas by row, '' for cells without one. */
  formulas: string[][];
}

export interface GasWorld {
  backing: Backing;
  http: SyncHttp;
  /** Every UrlFetchApp.fetch, in order, across executions. */
  fetches: FetchRecord[];
  spreadsheetId: string;
  spreadsheetTimeZone: string;
  scriptTimeZone: string;
  sheets: FakeSheet[];
  /** Directory of the built HTML files (HtmlService.createHtmlOutputFromFile). */
  htmlDir: string;
  /** Who owns the spreadsheet (custom functions read this user's properties) and who uses the menu. */
  owner: string;
  activeUser: string;
  /** UI calls: menus added, dialogs shown, toasts; and formula writes. */
  ui: { kind: string; detail: unknown }[];
  formulaWrites: { sheet: string; row: number; column: number; formula: string }[];
  log: string[];
}

export function createWorld(init: Partial<GasWorld> & { backing: Backing; http: SyncHttp; htmlDir: string }): GasWorld {
  return {
    fetches: [],
    spreadsheetId: 'sheet-1',
    spreadsheetTimeZone: 'America/Chicago',
    scriptTimeZone: 'America/Chicago',
    sheets: [],
    owner: 'owner@example.com',
    activeUser: 'owner@example.com',
    ui: [],
    formulaWrites: [],
    log: [],
    ...init,
  };
}

export type ExecutionKind = 'custom' | 'menu';

const blockFor = (ms: number) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, Math.max(0, ms));

const toSigned = (bytes: Uint8Array) => Array.from(bytes, (b) => (b > 127 ? b - 256 : b));

function titleCase(name: string): string {
  return name.replace(/(^|-)([a-z])/g, (_, d: string, c: string) => d + c.toUpperCase());
}

/** The Apps Script globals of one execution. */
export function appsScriptGlobals(world: GasWorld, kind: ExecutionKind, executionId: string): Record<string, unknown> {
  const custom = kind === 'custom';
  const { backing } = world;

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

  const UrlFetchApp = {
    fetch(
      url: string,
      params: { method?: string; headers?: Record<string, string>; muteHttpExceptions?: boolean } = {},
    ) {
      if (typeof url !== 'string' || !/^https?:\/\//.test(url)) throw new Error(`Exception: Invalid argument: ${url}`);
      const method = (params.method ?? 'get').toUpperCase();
      if (method !== 'GET') throw new Error('the add-on only ever sends GET');
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(params.headers ?? {})) headers[k.toLowerCase()] = String(v);
      const record: FetchRecord = { url, headers, status: 'failed' };
      world.fetches.push(record);
      let res: HttpResponse;
      try {
        res = world.http.request({ method: 'GET', url, headers, responseType: 'bytes' }, { timeoutMs: 30_000 });
      } catch {
        throw new Error(`Exception: Address unavailable: ${url}`);
      }
      record.status = res.status;
      const bytes = typeof res.body === 'string' ? new Uint8Array(Buffer.from(res.body)) : res.body;
      if (res.status >= 400 && !params.muteHttpExceptions) {
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
    },
  };

  const algorithms: Record<string, string> = { SHA_256: 'sha256', SHA_1: 'sha1', MD5: 'md5', SHA_512: 'sha512' };
  const Utilities = {
    DigestAlgorithm: { SHA_256: 'SHA_256', SHA_1: 'SHA_1', MD5: 'MD5', SHA_512: 'SHA_512' },
    Charset: { UTF_8: 'UTF_8', US_ASCII: 'US_ASCII' },
    sleep(ms: number) {
      if (!(ms >= 0) || ms > 300_000) throw new Error('Exception: Invalid argument: milliseconds');
      blockFor(ms);
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

  const noUi = () => {
    throw new Error('Exception: Cannot call SpreadsheetApp.getUi() from this context.');
  };
  const rangeOf = (sheet: FakeSheet, row: number, column: number, rows: number, columns: number) => ({
    getRow: () => row,
    getColumn: () => column,
    getNumRows: () => rows,
    getNumColumns: () => columns,
    getFormulas: () =>
      Array.from({ length: rows }, (_, r) =>
        Array.from({ length: columns }, (_, c) => sheet.formulas[row - 1 + r]?.[column - 1 + c] ?? ''),
      ),
    getFormula: () => sheet.formulas[row - 1]?.[column - 1] ?? '',
    setFormula(formula: string) {
      if (custom) throw new Error('Exception: You do not have permission to call setFormula');
      for (let r = 0; r < rows; r++) {
        for (let c = 0; c < columns; c++) {
          sheet.formulas[row - 1 + r] ??= [];
          const line = sheet.formulas[row - 1 + r]!;
          line[column - 1 + c] = formula;
          world.formulaWrites.push({ sheet: sheet.name, row: row + r, column: column + c, formula });
        }
      }
      return this;
    },
  });
  const sheetApi = (sheet: FakeSheet) => ({
    getName: () => sheet.name,
    getDataRange: () =>
      rangeOf(sheet, 1, 1, Math.max(1, sheet.formulas.length), Math.max(1, ...sheet.formulas.map((r) => r.length))),
    getRange: (row: number, column: number, rows = 1, columns = 1) => rangeOf(sheet, row, column, rows, columns),
  });
  const spreadsheet = {
    getId: () => world.spreadsheetId,
    getSpreadsheetTimeZone: () => world.spreadsheetTimeZone,
    getSheets: () => world.sheets.map(sheetApi),
    toast: (msg: string, title?: string) => {
      if (custom) noUi();
      world.ui.push({ kind: 'toast', detail: { msg, title } });
    },
  };
  const menu = (title: string) => {
    const items: (string | [string, string])[] = [];
    const m = {
      addItem: (caption: string, fn: string) => {
        items.push([caption, fn]);
        return m;
      },
      addSeparator: () => {
        items.push('---');
        return m;
      },
      addToUi: () => world.ui.push({ kind: 'menu', detail: { title, items } }),
    };
    return m;
  };
  const ui = {
    createAddonMenu: () => menu('add-on'),
    createMenu: (title: string) => menu(title),
    showModalDialog: (html: { getContent(): string }, title: string) =>
      world.ui.push({ kind: 'dialog', detail: { title, content: html.getContent() } }),
    showSidebar: (html: { getContent(): string }) =>
      world.ui.push({ kind: 'sidebar', detail: { content: html.getContent() } }),
    alert: (...args: unknown[]) => world.ui.push({ kind: 'alert', detail: args }),
  };
  const SpreadsheetApp = {
    getActiveSpreadsheet: () => spreadsheet,
    getActive: () => spreadsheet,
    getUi: () => (custom ? noUi() : ui),
    flush: () => world.ui.push({ kind: 'flush', detail: null }),
  };

  const htmlOutput = (content: string) => {
    let text = content;
    const out = {
      append: (s: string) => {
        text += s;
        return out;
      },
      setWidth: () => out,
      setHeight: () => out,
      setTitle: () => out,
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

  const user = (email: string) => ({ getEmail: () => email });
  return {
    UrlFetchApp,
    Utilities,
    CacheService: {
      getDocumentCache: () => cache(`doc:${world.spreadsheetId}`),
      getScriptCache: () => cache('script'),
      getUserCache: () => cache(`user:${custom ? world.owner : world.activeUser}`),
    },
    PropertiesService: {
      getDocumentProperties: () => properties(`doc:${world.spreadsheetId}`),
      getScriptProperties: () => properties('script'),
      // A custom function reads the spreadsheet owner's user properties.
      getUserProperties: () => properties(`user:${custom ? world.owner : world.activeUser}`),
    },
    LockService: {
      getDocumentLock: () => lock(`doc:${world.spreadsheetId}`),
      getScriptLock: () => lock('script'),
      getUserLock: () => lock(`user:${world.activeUser}`),
    },
    SpreadsheetApp,
    HtmlService,
    Session: {
      getScriptTimeZone: () => world.scriptTimeZone,
      getActiveUser: () => user(custom ? '' : world.activeUser),
      getEffectiveUser: () => user(custom ? world.owner : world.activeUser),
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

/** One execution: a fresh global scope with the services, then every file of the project run in it. */
export function startExecution(world: GasWorld, scripts: vm.Script[], kind: ExecutionKind): Execution {
  const id = randomUUID();
  const context = vm.createContext(appsScriptGlobals(world, kind, id));
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
