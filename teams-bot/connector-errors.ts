/**
 * What a failed Bot Connector call means. The Teams SDK does not retry: its errors carry the HTTP answer, read here
 * as a delivery failure. Microsoft asks bots to retry 429 (after `Retry-After`), 412, 502 and 504: the message was
 * not posted. Another 5xx, or no answer at all, may hide a message that went out ("unsure").
 */
import type { DeliveryFailure } from '../chat/digests/delivery/delivery.ts';

interface HttpFailure {
  response?: { status?: number; headers?: Record<string, unknown>; data?: unknown };
  code?: string;
}

const errorCodeOf = (data: unknown): string | undefined => {
  const code = (data as { error?: { code?: unknown } } | undefined)?.error?.code;
  return typeof code === 'string' ? code : undefined;
};

function retryAfterMs(headers: Record<string, unknown> | undefined): number {
  const raw = headers?.['retry-after'];
  const seconds = Number(Array.isArray(raw) ? raw[0] : raw);
  return Number.isFinite(seconds) && seconds > 0 ? seconds * 1000 : 1000;
}

export function classifyTeamsError(err: unknown): DeliveryFailure {
  const e = err as HttpFailure;
  const status = e?.response?.status;
  if (status === undefined)
    // No answer: the request may or may not have reached Teams.
    return { kind: 'transient', code: e?.code ?? 'no_answer', unsure: true };
  const code = errorCodeOf(e.response?.data);
  if (status === 429)
    return { kind: 'ratelimited', code: 'ratelimited', retryAfterMs: retryAfterMs(e.response?.headers) };
  if (status === 403)
    return { kind: 'permanent', code: code === 'BotNotInConversationRoster' ? 'bot_removed' : 'forbidden' };
  if (status === 404) return { kind: 'permanent', code: 'conversation_not_found' };
  if (status === 400) return { kind: 'permanent', code: 'bad_request' };
  if (status === 412 || status === 502 || status === 504)
    return { kind: 'transient', code: `http_${status}`, unsure: false };
  return { kind: 'transient', code: `http_${status}`, unsure: status >= 500 };
}
