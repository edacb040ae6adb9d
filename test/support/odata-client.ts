/**
 * The feed as a tool consumes it, through an OData client from npm (SAP's odata-library): it reads `$metadata`
 * (strictly: a metadata document it cannot read fails), builds its entity sets from it, and queries them with
 * Basic authentication, the key as the password. `readAll` asks for a whole set and follows `@odata.nextLink`
 * with the same client, as Excel and Power BI do.
 */
import odataLibrary from '@sap_oss/odata-library';

export interface PropertyModel {
  name: string;
  /** `String`, `Date`, `Decimal`, ... or a complex type's name. */
  type: string;
  nullable: boolean;
  scale: number | undefined;
}

export interface FeedClient {
  /** Every entity set the client found in `$metadata`. */
  sets(): string[];
  /** The properties and key of a set's entity type, as the client read them. */
  model(set: string): { properties: PropertyModel[]; key: string[] };
  /** The first page of a set (the client's own request: `$top=100`). */
  firstPage(set: string, o?: { filter?: string; select?: string[] }): Promise<Record<string, unknown>[]>;
  /** A whole set, page by page through next links; each page's body kept. */
  readAll(
    set: string,
    o?: { filter?: string; select?: string[]; orderby?: string; count?: boolean; maxPageSize?: number },
  ): Promise<{ rows: Record<string, unknown>[]; pages: Record<string, unknown>[] }>;
}

const quiet = { warn() {}, info() {}, debug() {}, error() {}, trace() {}, log() {} };

export async function connectFeed(root: string, key: string): Promise<FeedClient> {
  // The library is plain JavaScript: its declarations type nothing.
  const service: any = new odataLibrary.Service({
    url: root,
    auth: { type: 'basic', username: 'analyst', password: key },
    strict: true,
    logger: quiet,
  });
  await service.init;
  return {
    sets: () => Object.keys(service.entitySets ?? {}),
    model(set) {
      const m = service[set].entityTypeModel;
      return {
        properties: m.properties.map((p: any) => ({
          name: p.name,
          type: p.type?.name,
          nullable: p.nullable,
          scale: p.scale,
        })),
        key: m.key.map((k: any) => k.name),
      };
    },
    async firstPage(set, o = {}) {
      let request = service[set];
      if (o.filter) request = request.filter(o.filter);
      if (o.select) request = request.select(o.select);
      return request.get();
    },
    async readAll(set, o = {}) {
      const headers: Record<string, string> = { accept: 'application/json' };
      if (o.maxPageSize) headers.prefer = `odata.maxpagesize=${o.maxPageSize}`;
      // The whole set: a $top past any set's size, the feed's server-driven pages below it.
      let request = service[set].top(2_000_000_000);
      if (o.filter) request = request.filter(o.filter);
      if (o.select) request = request.select(o.select);
      if (o.orderby) request = request.orderby(o.orderby);
      if (o.count) request = request.queryParameter('$count', 'true');
      for (const [k, v] of Object.entries(headers)) request = request.header(k, v);
      let response = await request.raw().get();
      const pages: Record<string, unknown>[] = [];
      const rows: Record<string, unknown>[] = [];
      for (;;) {
        if (response.status !== 200) throw new Error(`${set}: ${response.status} ${await response.text()}`);
        const body = (await response.json()) as Record<string, unknown>;
        pages.push(body);
        rows.push(...(body.value as Record<string, unknown>[]));
        const next = body['@odata.nextLink'];
        if (typeof next !== 'string') break;
        response = await service.agent.get(next, { ...headers });
      }
      return { rows, pages };
    },
  };
}
