/**
 * The add-on's HTML in a real browser: Debian's Chromium driven by playwright-core, the page served over
 * loopback with a stand-in for `google.script.run` whose calls run the add-on's server functions as menu
 * executions in the Apps Script stand-in runtime (the harness), the way Apps Script runs each call.
 *
 * The stand-in keeps what Google documents (https://developers.google.com/apps-script/guides/html/reference/run):
 * calls are asynchronous and return nothing; `withSuccessHandler`, `withFailureHandler` and `withUserObject`
 * each return a new runner; arguments may only be primitives, plain objects and arrays (a Date, a function
 * or a DOM node other than a form throws); functions whose names end in `_` are private; without a failure
 * handler a failure goes to the console. `google.script.host.close()` and `.editor.focus()` are recorded.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { type BrowserContext, chromium } from 'playwright-core';
import type { Harness } from './apps-script-harness.ts';

const CHROMIUM = '/usr/bin/chromium';

const GOOGLE_SCRIPT = `(() => {
  const legal = (v) =>
    v === null || ['string', 'number', 'boolean', 'undefined'].includes(typeof v) ||
    (Array.isArray(v) ? v.every(legal) : typeof v === 'object' && Object.getPrototypeOf(v) === Object.prototype && Object.values(v).every(legal));
  function runner(o) {
    return new Proxy({}, {
      get(_, name) {
        if (name === 'withSuccessHandler') return (f) => runner({ ...o, ok: f });
        if (name === 'withFailureHandler') return (f) => runner({ ...o, fail: f });
        if (name === 'withUserObject') return (u) => runner({ ...o, user: u });
        if (typeof name !== 'string' || name.endsWith('_')) return undefined;
        return (...args) => {
          if (!args.every(legal)) throw new Error('Failed due to illegal value in property: 0');
          fetch('/run/' + encodeURIComponent(name), { method: 'POST', body: JSON.stringify(args) })
            .then((r) => r.json())
            .then((res) => {
              if ('error' in res) {
                const e = new Error(res.error);
                if (o.fail) o.fail(e, o.user); else console.error(e);
              } else if (o.ok) o.ok(res.value, o.user);
            });
        };
      },
    });
  }
  window.__host = { closed: false, focused: 0 };
  window.google = { script: { run: runner({}), host: {
    close() { window.__host.closed = true; },
    editor: { focus() { window.__host.focused++; } },
  } } };
})();`;

export interface AddonServer {
  origin: string;
  /** Serve `html` (as HtmlService produced it) at a new address, with the stand-in in its head. */
  page(html: string): string;
  /** The bodies the server sent to the browser (pages and answers), in order. */
  sent: string[];
  /** The server functions the pages called, in order. */
  calls: { name: string; args: unknown[] }[];
  close(): Promise<void>;
}

function body(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => {
      text += c;
    });
    req.on('end', () => resolve(text));
    req.on('error', reject);
  });
}

export async function startAddonServer(h: Harness): Promise<AddonServer> {
  const pages: string[] = [];
  const sent: string[] = [];
  const calls: AddonServer['calls'] = [];
  const reply = (res: ServerResponse, status: number, type: string, text: string) => {
    sent.push(text);
    res.writeHead(status, { 'content-type': `${type}; charset=utf-8`, 'cache-control': 'no-store' });
    res.end(text);
  };
  const server: Server = createServer(async (req, res) => {
    const url = req.url ?? '/';
    const page = /^\/page\/(\d+)$/.exec(url);
    if (req.method === 'GET' && page && pages[Number(page[1])] !== undefined) {
      return reply(res, 200, 'text/html', pages[Number(page[1])]!);
    }
    if (req.method === 'GET' && url === '/google-script.js') return reply(res, 200, 'text/javascript', GOOGLE_SCRIPT);
    const run = /^\/run\/([A-Za-z0-9_]+)$/.exec(url);
    if (req.method === 'POST' && run) {
      const args = JSON.parse(await body(req)) as unknown[];
      calls.push({ name: run[1]!, args });
      // Each call is its own execution, as the person at the keyboard.
      const r = h.menu(run[1]!, ...args);
      return reply(
        res,
        200,
        'application/json',
        JSON.stringify(r.error !== undefined ? { error: r.error } : { value: r.value ?? null }),
      );
    }
    reply(res, 404, 'text/plain', 'not found');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    sent,
    calls,
    page(html) {
      const withStandIn = html.replace(/<head>/i, '<head><script src="/google-script.js"></script>');
      pages.push(withStandIn);
      return `${origin}/page/${pages.length - 1}`;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const HOSTILE_WORKER = `
const { parentPort, workerData: o } = require('node:worker_threads');
const http = require('node:http');
const escaped = JSON.stringify(o.to).slice(1, -1);
const server = http.createServer((req, res) => {
  if (req.headers.authorization === 'Bearer ' + o.deniedKey) {
    res.writeHead(403, { 'content-type': 'application/json' });
    return res.end(JSON.stringify({ error: { code: 'forbidden', message: o.to }, request_id: 'req_hostile' }));
  }
  const up = new URL(req.url, o.upstream);
  const forward = http.request(up, { method: req.method, headers: { ...req.headers, host: up.host } }, (answer) => {
    let text = '';
    answer.setEncoding('utf8');
    answer.on('data', (c) => { text += c; });
    answer.on('end', () => {
      const out = text.split(o.from).join(escaped);
      res.writeHead(answer.statusCode, { ...answer.headers, 'content-length': String(Buffer.byteLength(out)) });
      res.end(out);
    });
  });
  forward.on('error', () => { res.writeHead(502); res.end(); });
  req.pipe(forward);
});
server.listen(0, '127.0.0.1', () => parentPort.postMessage(server.address().port));
parentPort.on('message', () => server.close(() => parentPort.postMessage('closed')));
`;

/**
 * A proxy in front of the sandbox that makes the API's text hostile: `from` is replaced by `to` in every JSON
 * answer, and a request with the bearer key `deniedKey` gets a 403 whose message is `to`. It runs in a worker
 * thread: the add-on's blocking transport holds this thread while it waits for an answer.
 */
export async function startHostileApi(o: {
  upstream: string;
  from: string;
  to: string;
  deniedKey: string;
}): Promise<{ baseUrl: string; close(): Promise<void> }> {
  const worker = new Worker(HOSTILE_WORKER, { eval: true, workerData: o });
  const port = await new Promise<number>((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
  });
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    async close() {
      const done = new Promise((r) => worker.once('message', r));
      worker.postMessage('close');
      await done;
      await worker.terminate();
    },
  };
}

/**
 * Debian's Chromium, headless, with a fresh profile. The flags keep it from reaching out (this machine's
 * network is closed: without them Chromium's background services make it refuse connections).
 */
export async function launchChromium(): Promise<{ context: BrowserContext; close(): Promise<void> }> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`No Chromium at ${CHROMIUM}: install Debian's package (apt-get install chromium); .ci/run does.`);
  }
  const profile = mkdtempSync(join(tmpdir(), 'linen-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  return {
    context,
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}
