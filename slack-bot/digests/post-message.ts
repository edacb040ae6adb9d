/**
 * `chat.postMessage` for scheduled posts (digests, alerts), sent as a JSON body with the bot token in the
 * Authorization header, as Slack's Web API documentation recommends for this method ("we strongly recommend using
 * JSON-encoded bodies", docs.slack.dev/apis/web-api), to the workspace client's own `slackApiUrl` and with its own
 * token: the token goes nowhere the client would not send it.
 *
 * Why not the WebClient's `chat.postMessage`: every call of it serializes the message four times (a redacted copy
 * for a debug line built whatever the log level, the blocks as a JSON form field, that field percent-encoded, and a
 * redacted copy of the answer), and a profile of ten thousand digests showed that work as the largest part of the
 * bot's CPU per post after the transport. Here the blocks are serialized once per content (the runs that share a
 * build share it) and the answer is parsed once.
 *
 * Its failures are the library's own errors, as the digest client (no retries of its own, rate limits rejected,
 * 30 s timeout) throws them, so the engine's classification (`classifySlackError`) reads them unchanged: a 429 is a
 * WebAPIRateLimitedError with its Retry-After, `ok: false` a WebAPIPlatformError with Slack's error code, another
 * status a WebAPIHTTPError, a connection that fails or hangs a WebAPIRequestError (all but the first two may hide a
 * post that went out: the engine searches the channel before trying again).
 */
import { WebAPIHTTPError, WebAPIPlatformError, WebAPIRateLimitedError, WebAPIRequestError } from '@slack/web-api';
import { request } from 'undici';

/** What a Web API client knows of where it posts and with what. */
export interface PostingClient {
  readonly slackApiUrl: string;
  readonly token?: string | undefined;
}

/** A call Slack never answers ends after this (the digest client's timeout). */
const TIMEOUT_MS = 30_000;

/**
 * Posts a message whose JSON body is already made (see `messageBody`) and answers its `ts`.
 */
export async function postMessageJson(client: PostingClient, body: string): Promise<string> {
  let answer: Awaited<ReturnType<typeof request>>;
  let text: string;
  try {
    answer = await request(`${client.slackApiUrl}chat.postMessage`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json; charset=utf-8',
        ...(client.token ? { authorization: `Bearer ${client.token}` } : {}),
      },
      body,
      headersTimeout: TIMEOUT_MS,
      bodyTimeout: TIMEOUT_MS,
    });
    text = await answer.body.text();
  } catch (err) {
    throw new WebAPIRequestError(err instanceof Error ? err : new Error(String(err)));
  }
  const header = (name: string) => {
    const v = answer.headers[name];
    return Array.isArray(v) ? v.join(', ') : v;
  };
  if (answer.statusCode === 429) {
    const seconds = Number.parseInt(header('retry-after') ?? '', 10);
    throw new WebAPIRateLimitedError(Number.isNaN(seconds) ? 1 : seconds);
  }
  if (answer.statusCode !== 200) {
    const headers = Object.fromEntries(Object.keys(answer.headers).map((k) => [k, header(k) ?? '']));
    throw new WebAPIHTTPError(answer.statusCode, '', headers, text);
  }
  let result: { ok?: boolean; ts?: unknown; error?: string };
  try {
    result = JSON.parse(text) as typeof result;
  } catch (err) {
    throw new WebAPIRequestError(err instanceof Error ? err : new Error(String(err)));
  }
  if (result.ok !== true) throw new WebAPIPlatformError(result as never);
  return String(result.ts);
}

/**
 * The JSON body of a post of `blocksJson` (the message's blocks, serialized once for every post of them) to
 * `channel`, with its fallback text and the run's metadata.
 */
export function messageBody(
  channel: string,
  text: string,
  blocksJson: string,
  metadata: { event_type: string; event_payload: Record<string, string> },
): string {
  const head = JSON.stringify({ channel, text, unfurl_links: false, unfurl_media: false, metadata });
  return `${head.slice(0, -1)},"blocks":${blocksJson}}`;
}
