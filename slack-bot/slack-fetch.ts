/**
 * The transport of every Slack Web API client the bot makes (Bolt's, the digest worker's, each workspace's): the
 * `fetch` option of `@slack/web-api`, on undici's `request` over kept-alive connections.
 *
 * Why: the WebClient's default, the WHATWG `fetch`, spends about a millisecond of CPU per call on web streams,
 * abort signals and Request/Response objects; undici's `request` spends about a third of it. A digest run posts
 * thousands of messages from one process, and that CPU is what bounds it. The answer implements exactly the
 * `FetchResponse` the library declares (its whole use of a response), read in full: Web API answers are small.
 *
 * It asks for no compression (it sends no Accept-Encoding), so an answer's bytes are its JSON as sent.
 * Redirects are not followed (the library asks for `redirect: 'error'`; a 3xx reaches it as a non-200 answer, which
 * it reports as an HTTP error). Multipart bodies (a file upload's bytes) go through the library's default `fetch`,
 * which encodes them.
 */
import type { FetchFunction } from '@slack/web-api';
import { request } from 'undici';

/** What the library reads of an answer (its own `FetchResponse`, which it does not export). */
type FetchResponse = Awaited<ReturnType<FetchFunction>>;

export const slackFetch: FetchFunction = async (url, init = {}) => {
  if (typeof init.body !== 'string' && init.body !== undefined) return globalThis.fetch(url, init);
  const answer = await request(url, {
    method: (init.method ?? 'GET') as 'GET',
    headers: init.headers,
    body: init.body,
    signal: init.signal,
  });
  const bytes = Buffer.from(await answer.body.arrayBuffer());
  return webAnswer(String(url), answer.statusCode, answer.headers, bytes);
};

function webAnswer(
  url: string,
  status: number,
  headers: Record<string, string | string[] | undefined>,
  bytes: Buffer,
): FetchResponse {
  const text = () => bytes.toString('utf8');
  return {
    ok: status >= 200 && status < 300,
    status,
    statusText: '',
    url,
    headers: {
      get: (name: string) => {
        const value = headers[name.toLowerCase()];
        return value === undefined ? null : Array.isArray(value) ? value.join(', ') : value;
      },
      entries: () =>
        Object.entries(headers).flatMap(([name, value]) =>
          value === undefined ? [] : [[name, Array.isArray(value) ? value.join(', ') : value] as [string, string]],
        ),
    },
    text: async () => text(),
    json: async () => JSON.parse(text()),
    arrayBuffer: async () => bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer,
  };
}
