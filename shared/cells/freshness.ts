/**
 * How long a spreadsheet keeps what its cells fetched: a whole listing for an hour (until the person refreshes),
 * a failure that a retry right away would repeat (no access, an unknown customer) for a minute, so a hundred
 * failing cells cost one request.
 */
export const LISTING_TTL_MS = 3_600_000;
export const ERROR_TTL_MS = 60_000;
