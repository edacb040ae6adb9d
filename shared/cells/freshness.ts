/**
 * How long a spreadsheet keeps what its cells fetched: a whole listing for an hour (until the person refreshes),
 * the API's failure (no access, an unknown customer, the API down after its retries) for a minute, so a hundred
 * failing cells cost one request (`worthCaching` in messages.ts says which failures).
 */
export const LISTING_TTL_MS = 3_600_000;
export const ERROR_TTL_MS = 60_000;
