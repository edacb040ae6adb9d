/**
 * Whether a payload carries a response_url. Slack always sends one with a slash command or a message button,
 * but a signed payload without it must not reach `respond()`, which Bolt only provides when there is one.
 */
export function hasResponseUrl(body: unknown): boolean {
  const b = body as { response_url?: unknown; response_urls?: unknown } | null;
  if (typeof b?.response_url === 'string' && b.response_url !== '') return true;
  return Array.isArray(b?.response_urls) && b.response_urls.length > 0;
}
