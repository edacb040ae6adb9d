/**
 * Absolute http(s) addresses, parsed the same way with or without the `URL` global (Apps Script has none).
 */
export type ParsedUrl = Pick<URL, 'protocol' | 'origin' | 'href' | 'search' | 'hash' | 'username' | 'password'>;

/** `URL` where the runtime has it. Apps Script's V8 has none: there, `parseHttpUrl`. */
export function parseUrl(href: string): ParsedUrl {
  return typeof URL === 'function' ? new URL(href) : parseHttpUrl(href);
}

/** A strict parse of an absolute http(s) address, for runtimes without `URL`. */
export function parseHttpUrl(address: string): ParsedUrl {
  const m = /^(https?:)\/\/(?:([^@/?#]*)@)?([a-z0-9.-]+|\[[0-9a-f:.]+\])(?::(\d+))?(\/[^?#]*)?(\?[^#]+)?(#.+)?$/i.exec(
    address.trim(),
  );
  if (!m) throw new TypeError(`Invalid URL: ${address}`);
  const protocol = m[1]!.toLowerCase();
  const port = m[4] && m[4] !== (protocol === 'https:' ? '443' : '80') ? `:${m[4]}` : '';
  const host = `${m[3]!.toLowerCase()}${port}`;
  const [search, hash] = [m[6] ?? '', m[7] ?? ''];
  const [username = '', password = ''] = (m[2] ?? '').split(':');
  const credentials = m[2] ? `${m[2]}@` : '';
  const href = `${protocol}//${credentials}${host}${m[5] || '/'}${search}${hash}`;
  return { protocol, origin: `${protocol}//${host}`, href, search, hash, username, password };
}
