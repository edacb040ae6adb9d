/**
 * Excel's shared runtime, as far as the add-in can tell: the built runtime page's scripts (taskpane.html's own,
 * in order; office.js is Microsoft's and stands in here) run in one `vm` context with fake `Office`,
 * `CustomFunctions`, `OfficeRuntime` and `Excel` globals, `location` on the service's origin, and a `fetch` that
 * enforces CORS as a browser does: a request to another origin carrying an Authorization header goes out only if
 * that origin's preflight allows it (the Linen API's does not), else it fails with "Failed to fetch".
 *
 * The fakes keep what Microsoft documents: `CustomFunctions.associate(id, fn)`; `CustomFunctions.Error(code,
 * message)` with `ErrorCode` values `#VALUE!`, `#N/A`...; a cancelable call's `invocation.onCanceled`;
 * `OfficeRuntime.storage` (string values, `getItems` answers null for a missing key); `Office.onReady`,
 * `Office.context.requirements.isSetSupported`; `Excel.run` with `application.calculate(type)`. An omitted
 * optional argument arrives as null.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import vm from 'node:vm';

export class FakeCustomFunctionsError {
  constructor(
    readonly code: string,
    readonly message?: string,
  ) {}
}

export const ERROR_CODES = {
  invalidValue: '#VALUE!',
  notAvailable: '#N/A',
  divisionByZero: '#DIV/0!',
  invalidNumber: '#NUM!',
  nullReference: '#NULL!',
  invalidName: '#NAME?',
  invalidReference: '#REF!',
} as const;

export interface FetchRecord {
  url: string;
  /** The response's status; absent when the request was blocked or failed. */
  status?: number;
  blocked?: boolean;
  aborted?: boolean;
}

export type CellResult = { value: unknown } | { error: { code: string; message: string | undefined } };

export interface Call {
  result: Promise<CellResult>;
  /** What Excel does when the user edits an argument or recalculates while the call runs. */
  cancel(): void;
}

export interface ExcelRuntime {
  context: vm.Context;
  /** Function ids associated by the page's scripts, e.g. `FILLRATE`. */
  registered: string[];
  /** Call `LINEN.<id>(...args)` as Excel does (optional arguments left out are null), with a cancelable invocation. */
  invoke(id: string, ...args: unknown[]): Call;
  call(id: string, ...args: unknown[]): Promise<CellResult>;
  storage: Map<string, string>;
  /** `application.calculate` types asked through `Excel.run`. */
  calculations: string[];
  fetches: FetchRecord[];
  /** Fetch as the page would (for checking what CORS lets through). */
  pageFetch(url: string, init?: RequestInit): Promise<Response>;
  /** Resolves once `Office.onReady` callbacks have run. */
  ready: Promise<void>;
}

export interface RuntimeOptions {
  /** The built add-in folder. */
  dir: string;
  /** The page's origin: the service serving it and its relay. */
  origin: string;
  storage?: Record<string, string>;
  /** Requirement sets the host supports, e.g. `{ CustomFunctionsRuntime: '1.4', ExcelApi: '1.19' }`. */
  requirements?: Record<string, string>;
}

/** Each function's declared parameter count, from the built functions.json (Excel passes null for omitted ones). */
export function aritiesOf(dir: string): Record<string, number> {
  const meta = JSON.parse(readFileSync(join(dir, 'functions.json'), 'utf8')) as {
    functions: { id: string; parameters: unknown[] }[];
  };
  return Object.fromEntries(meta.functions.map((f) => [f.id, f.parameters.length]));
}

/** The page's own scripts, in order: Microsoft's office.js is left to the fakes. */
export function pageScripts(dir: string): string[] {
  const html = readFileSync(join(dir, 'taskpane.html'), 'utf8');
  return [...html.matchAll(/<script\s+src="([^"]+)"\s*><\/script>/g)]
    .map((m) => m[1]!)
    .filter((src) => !/^https:\/\/appsforoffice\.microsoft\.com\//.test(src));
}

const versionAtLeast = (have: string, want: string) => {
  const a = have.split('.').map(Number);
  const b = want.split('.').map(Number);
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    if ((a[i] ?? 0) !== (b[i] ?? 0)) return (a[i] ?? 0) > (b[i] ?? 0);
  }
  return true;
};

/** A browser's fetch for a page at `origin`: another origin must allow the page through CORS. */
function corsFetch(origin: string, fetches: FetchRecord[]) {
  return async (input: string, init: RequestInit = {}): Promise<Response> => {
    const url = new URL(input, origin);
    const headers = new Headers(init.headers);
    const record: FetchRecord = { url: url.href };
    fetches.push(record);
    if (url.origin !== origin) {
      // Authorization is not a CORS-safelisted header: the browser asks the other origin first.
      const preflight = await fetch(url, {
        method: 'OPTIONS',
        headers: {
          origin,
          'access-control-request-method': init.method ?? 'GET',
          'access-control-request-headers': [...headers.keys()].join(','),
        },
      }).catch(() => undefined);
      const allowOrigin = preflight?.headers.get('access-control-allow-origin');
      const allowHeaders = (preflight?.headers.get('access-control-allow-headers') ?? '').toLowerCase();
      const allowed =
        preflight?.ok &&
        (allowOrigin === '*' || allowOrigin === origin) &&
        [...headers.keys()].every((h) => allowHeaders === '*' || allowHeaders.split(/\s*,\s*/).includes(h));
      if (!allowed) {
        record.blocked = true;
        throw new TypeError('Failed to fetch');
      }
    }
    try {
      const res = await fetch(url, { ...init, headers });
      record.status = res.status;
      return res;
    } catch (e) {
      if (init.signal?.aborted) record.aborted = true;
      throw e;
    }
  };
}

export function loadExcelRuntime(o: RuntimeOptions): ExcelRuntime {
  const storage = new Map(Object.entries(o.storage ?? {}));
  const calculations: string[] = [];
  const fetches: FetchRecord[] = [];
  const functions = new Map<string, (...args: unknown[]) => unknown>();
  const requirements = o.requirements ?? { CustomFunctionsRuntime: '1.4', ExcelApi: '1.19', SharedRuntime: '1.1' };
  const readyCallbacks: (() => void)[] = [];
  const pageFetch = corsFetch(o.origin, fetches);
  const arity = aritiesOf(o.dir);

  const globals = {
    console,
    setTimeout,
    clearTimeout,
    queueMicrotask,
    AbortController,
    AbortSignal,
    TextDecoder,
    TextEncoder,
    Headers,
    URL,
    URLSearchParams,
    location: { origin: o.origin, href: `${o.origin}/excel/taskpane.html` },
    fetch: pageFetch,
    CustomFunctions: {
      associate(id: string | Record<string, (...a: unknown[]) => unknown>, fn?: (...a: unknown[]) => unknown) {
        if (typeof id === 'string') functions.set(id, fn!);
        else for (const [k, f] of Object.entries(id)) functions.set(k, f);
      },
      Error: FakeCustomFunctionsError,
      ErrorCode: ERROR_CODES,
    },
    OfficeRuntime: {
      storage: {
        getItem: async (k: string) => storage.get(k) ?? null,
        setItem: async (k: string, v: string) => void storage.set(k, String(v)),
        removeItem: async (k: string) => void storage.delete(k),
        getItems: async (keys: string[]) => Object.fromEntries(keys.map((k) => [k, storage.get(k) ?? null])),
        setItems: async (values: Record<string, string>) => {
          for (const [k, v] of Object.entries(values)) storage.set(k, String(v));
        },
        removeItems: async (keys: string[]) => {
          for (const k of keys) storage.delete(k);
        },
        getKeys: async () => [...storage.keys()],
      },
    },
    Office: {
      onReady(callback?: (info: { host: string; platform: string }) => void) {
        return new Promise((resolve) => {
          readyCallbacks.push(() => {
            callback?.({ host: 'Excel', platform: 'PC' });
            resolve({ host: 'Excel', platform: 'PC' });
          });
        });
      },
      context: {
        requirements: {
          isSetSupported: (name: string, version = '1.1') =>
            requirements[name] !== undefined && versionAtLeast(requirements[name]!, version),
        },
      },
    },
    Excel: {
      CalculationType: { recalculate: 'Recalculate', full: 'Full', fullRebuild: 'FullRebuild' },
      async run<T>(batch: (context: unknown) => Promise<T>): Promise<T> {
        const context = {
          workbook: { application: { calculate: (type: string) => calculations.push(type) } },
          sync: async () => {},
        };
        return batch(context);
      },
    },
  };
  const context = vm.createContext(globals);
  for (const src of pageScripts(o.dir)) {
    const file = join(o.dir, src.replace(/^\.?\//, ''));
    new vm.Script(readFileSync(file, 'utf8'), { filename: file }).runInContext(context);
  }
  const ready = Promise.resolve().then(() => {
    for (const run of readyCallbacks.splice(0)) run();
  });

  const invoke = (id: string, ...args: unknown[]): Call => {
    const fn = functions.get(id);
    if (!fn) throw new Error(`LINEN.${id} is not registered`);
    const declared = arity[id] ?? args.length;
    if (args.length > declared) throw new Error(`LINEN.${id} takes ${declared} arguments; Excel refuses more`);
    const full = [...args, ...Array.from({ length: declared - args.length }, () => null)];
    const invocation: { onCanceled?: () => void; functionName: string } = { functionName: `LINEN.${id}` };
    const result = (async (): Promise<CellResult> => {
      try {
        return { value: await fn(...full, invocation) };
      } catch (e) {
        if (e instanceof FakeCustomFunctionsError) return { error: { code: e.code, message: e.message } };
        throw e;
      }
    })();
    return { result, cancel: () => invocation.onCanceled?.() };
  };
  return {
    context,
    registered: [...functions.keys()],
    invoke,
    call: (id, ...args) => invoke(id, ...args).result,
    storage,
    calculations,
    fetches,
    pageFetch: (url, init) => pageFetch(url, init),
    ready,
  };
}
