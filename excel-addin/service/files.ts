/**
 * The add-in's built files (dist/excel-addin/) at `/excel/`: the runtime page, its scripts, the functions'
 * metadata, the manifest and the icons. Only those files are served: a name is looked up in the list read from
 * the folder, never joined to a path, so nothing outside it can be reached.
 */
import { readdir, readFile, stat } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join, relative } from 'node:path';

export const FILES_PREFIX = '/excel/';

const TYPES: Record<string, string> = {
  html: 'text/html; charset=utf-8',
  js: 'text/javascript; charset=utf-8',
  json: 'application/json; charset=utf-8',
  xml: 'application/xml; charset=utf-8',
  png: 'image/png',
};

async function listFiles(dir: string, root = dir): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const full = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await listFiles(full, root)));
    else if (entry.isFile()) out.push(relative(root, full).split('\\').join('/'));
  }
  return out;
}

export interface AddinFiles {
  handle(req: IncomingMessage, res: ServerResponse): Promise<void>;
}

/** `dir` is read when a file is first asked for (a build after the service started is picked up). */
export function addinFiles(dir: string): AddinFiles {
  return {
    async handle(req, res) {
      const path = new URL(req.url ?? '/', 'http://localhost').pathname;
      const name = path === FILES_PREFIX ? 'taskpane.html' : path.slice(FILES_PREFIX.length);
      if (req.method !== 'GET' && req.method !== 'HEAD') {
        res.writeHead(405, { allow: 'GET, HEAD', 'content-type': 'text/plain; charset=utf-8' });
        res.end('The add-in files are read with GET.\n');
        return;
      }
      const known = await listFiles(dir).catch(() => null);
      if (!known) {
        res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' });
        res.end('The Excel add-in is not built on this server: run npm run build (see excel-addin/README.md).\n');
        return;
      }
      const type = TYPES[name.slice(name.lastIndexOf('.') + 1)];
      if (!known.includes(name) || !type) {
        res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' });
        res.end('Not found\n');
        return;
      }
      const file = join(dir, name);
      const [body, info] = await Promise.all([readFile(file), stat(file)]);
      res.writeHead(200, {
        'content-type': type,
        'content-length': String(body.byteLength),
        // Office keeps add-in files in its own cache: make it ask again, so a new build reaches every user.
        'cache-control': 'no-cache',
        'last-modified': info.mtime.toUTCString(),
        'x-content-type-options': 'nosniff',
        'referrer-policy': 'no-referrer',
      });
      res.end(req.method === 'HEAD' ? undefined : body);
    },
  };
}
