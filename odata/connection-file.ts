/**
 * `GET /odata/linen.pbids`: a Power BI data source file. Opened, Power BI Desktop starts a report connected to the
 * feed (its Navigator lists every set) and asks for the credentials: the file names the feed's address and
 * nothing else, no key.
 */

/** The file's text for the feed at `serviceRoot` (absolute, ending in `/odata/`). */
export function pbids(serviceRoot: string): string {
  return `${JSON.stringify(
    {
      version: '0.1',
      connections: [{ details: { protocol: 'odata', address: { url: serviceRoot } }, options: {}, mode: 'Import' }],
    },
    null,
    2,
  )}\n`;
}
