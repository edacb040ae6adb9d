/// <reference types="google-apps-script" />
/**
 * The Apps Script side of the add-on: the UrlFetchApp transport, settings from the property stores, the
 * CacheService store (chunked values, shared pacing state) and the document lock. Everything that touches an
 * Apps Script global lives here, so the rest of the add-on is plain TypeScript.
 */
import type {
  BatchSyncTransport,
  HttpRequest,
  HttpResponse,
  PacingState,
  PacingStore,
  SyncTransport,
} from '../../shared/index.ts';

declare const LINEN_DEFAULT_BASE_URL: string;

export const PROP_KEY = 'LINEN_API_KEY';
export const PROP_BASE_URL = 'LINEN_BASE_URL';
export const PROP_TIMEZONE = 'LINEN_TIMEZONE';
export const PROP_GENERATION = 'LINEN_CACHE_GENERATION';

const fetchOptions = (req: HttpRequest) =>
  ({ method: 'get', headers: req.headers, muteHttpExceptions: true, followRedirects: false }) as const;

function toResponse(req: HttpRequest, res: GoogleAppsScript.URL_Fetch.HTTPResponse): HttpResponse {
  const headers: Record<string, string> = {};
  const all = res.getAllHeaders() as Record<string, string | string[]>;
  for (const name of Object.keys(all)) {
    const v = all[name];
    headers[name.toLowerCase()] = Array.isArray(v) ? v.join(', ') : String(v);
  }
  const body =
    req.responseType === 'bytes' ? Uint8Array.from(res.getContent(), (b) => b & 0xff) : res.getContentText('UTF-8');
  return { status: res.getResponseCode(), headers, body };
}

/** `UrlFetchApp.fetch` with `muteHttpExceptions`, so every status comes back to the client's retry logic. */
export const urlFetchTransport: SyncTransport = {
  request(req: HttpRequest): HttpResponse {
    return toResponse(req, UrlFetchApp.fetch(req.url, fetchOptions(req)));
  },
};

/**
 * `UrlFetchApp.fetchAll`: the requests go out together and come back in order. `muteHttpExceptions` is set on
 * each, so an error status is an answer; a thrown fetchAll (the network) fails every request of the batch.
 */
export const urlFetchAllTransport: BatchSyncTransport = {
  requestAll(batch) {
    try {
      const answers = UrlFetchApp.fetchAll(batch.map(({ req }) => ({ url: req.url, ...fetchOptions(req) })));
      return batch.map(({ req }, i) => toResponse(req, answers[i]!));
    } catch (e) {
      const error = e instanceof Error ? e : new Error(String(e));
      return batch.map(() => error);
    }
  },
};

export const sleep = (ms: number): void => Utilities.sleep(Math.max(0, Math.min(ms, 30_000)));

function hex(bytes: number[]): string {
  let s = '';
  for (const b of bytes) s += ((b & 0xff) + 0x100).toString(16).slice(1);
  return s;
}

export function sha256(text: string): string {
  return hex(Utilities.computeDigest(Utilities.DigestAlgorithm.SHA_256, text, Utilities.Charset.UTF_8));
}

export interface Settings {
  apiKey: string | null;
  baseUrl: string;
  /** The organization's timezone (the API's days). */
  orgTimeZone: string;
  /** The spreadsheet's timezone (how Sheets shows and passes dates). */
  sheetTimeZone: string;
  generation: string;
}

function prop(store: GoogleAppsScript.Properties.Properties | null, name: string): string | null {
  const v = store?.getProperty(name);
  return v && v.trim() !== '' ? v.trim() : null;
}

export function spreadsheetTimeZone(): string {
  try {
    const ss = SpreadsheetApp.getActiveSpreadsheet();
    const tz = ss?.getSpreadsheetTimeZone();
    if (tz) return tz;
  } catch {
    // not bound to a spreadsheet
  }
  return Session.getScriptTimeZone();
}

/** Null outside a document. */
export function documentProperties(): GoogleAppsScript.Properties.Properties | null {
  return PropertiesService.getDocumentProperties();
}

export function readSettings(): Settings {
  const doc = documentProperties();
  const sheetTimeZone = spreadsheetTimeZone();
  return {
    apiKey: prop(PropertiesService.getUserProperties(), PROP_KEY),
    baseUrl:
      prop(doc, PROP_BASE_URL) ??
      prop(PropertiesService.getScriptProperties(), PROP_BASE_URL) ??
      LINEN_DEFAULT_BASE_URL,
    orgTimeZone: prop(doc, PROP_TIMEZONE) ?? sheetTimeZone,
    sheetTimeZone,
    generation: prop(doc, PROP_GENERATION) ?? '0',
  };
}

export function defaultBaseUrl(): string {
  return LINEN_DEFAULT_BASE_URL;
}

/**
 * The document cache alone: a refresh run must warm the cache the cells read, never fall back to the script
 * cache (where no cell looks) when it runs outside a document.
 */
export function documentCache(): GoogleAppsScript.Cache.Cache | null {
  return CacheService.getDocumentCache();
}

/** The document cache (shared by everyone using this spreadsheet), or the script cache outside a document. */
export function responseCache(): GoogleAppsScript.Cache.Cache {
  return CacheService.getDocumentCache() ?? CacheService.getScriptCache();
}

/**
 * Pacing state in the script cache, per key: every execution of every spreadsheet using the same key draws
 * from one 120-a-minute budget.
 */
export function cachePacingStore(keyHash: string): PacingStore {
  const cache = CacheService.getScriptCache();
  const name = `linen:pace:${keyHash}`;
  return {
    load(): PacingState {
      try {
        const raw = cache.get(name);
        if (raw) {
          const s = JSON.parse(raw) as PacingState;
          if (Array.isArray(s.sent) && typeof s.blockedUntil === 'number') return s;
        }
      } catch {
        // unreadable: start afresh
      }
      return { sent: [], blockedUntil: 0 };
    },
    save(state: PacingState): void {
      cache.put(name, JSON.stringify(state), 180);
    },
  };
}

export function documentLock(): GoogleAppsScript.Lock.Lock {
  return LockService.getDocumentLock() ?? LockService.getScriptLock();
}
