/** Route tables: each resource family declares { path pattern, scope, query schema, handler }. */
import type { IncomingMessage } from 'node:http';
import type { ApiKey, SandboxData, Scope } from '../model.ts';
import type { LinkSigner } from './links.ts';
import type { ParsedQuery, QuerySchema } from './params.ts';
import type { KeyScope } from './scope.ts';

export interface RouteContext {
  req: IncomingMessage;
  data: SandboxData;
  key: ApiKey;
  scope: KeyScope;
  query: ParsedQuery;
  /** Path parameters by name, e.g. `{ id }`. */
  path: Record<string, string>;
  /** The organization's timezone. */
  timeZone: string;
  /** "Today", org-local. */
  today: string;
  /** Wall-clock epoch ms of the request (from the `now` option). */
  nowMs: number;
  /** `http://host[:port]` as the client addressed the server. */
  origin: string;
  links: LinkSigner;
}

export type RouteResult =
  | { type: 'list'; rows: readonly unknown[]; project?: (row: never) => unknown }
  | { type: 'object'; data: unknown }
  | { type: 'binary'; contentType: string; headers?: Record<string, string>; body: Uint8Array };

export interface RouteDef {
  /** Relative to /v1, with `:name` segments, e.g. `/customers/:id/departments`. */
  path: string;
  scope: Scope | 'any';
  query: QuerySchema;
  handler: (ctx: RouteContext) => RouteResult | Promise<RouteResult>;
}

/** A list result; `project` maps each served row to its wire shape. */
export function list<T>(rows: readonly T[], project?: (row: T) => unknown): RouteResult {
  return project ? { type: 'list', rows, project: project as (row: never) => unknown } : { type: 'list', rows };
}

export function single(data: unknown): RouteResult {
  return { type: 'object', data };
}

interface CompiledRoute {
  def: RouteDef;
  segments: string[];
}

export class Router {
  private readonly routes: CompiledRoute[];

  constructor(defs: readonly RouteDef[]) {
    this.routes = defs.map((def) => ({ def, segments: def.path.split('/').filter(Boolean) }));
  }

  /** Matches a path relative to /v1 (one trailing slash tolerated). */
  match(path: string): { def: RouteDef; params: Record<string, string> } | null {
    const trimmed = path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
    const parts = trimmed.split('/');
    if (parts[0] !== '') return null;
    parts.shift();
    for (const route of this.routes) {
      if (route.segments.length !== parts.length) continue;
      const params: Record<string, string> = {};
      let ok = true;
      for (let i = 0; i < parts.length; i++) {
        const seg = route.segments[i]!;
        const part = parts[i]!;
        if (seg.startsWith(':')) {
          if (part === '') {
            ok = false;
            break;
          }
          let decoded: string;
          try {
            decoded = decodeURIComponent(part);
          } catch {
            ok = false;
            break;
          }
          params[seg.slice(1)] = decoded;
        } else if (seg !== part) {
          ok = false;
          break;
        }
      }
      if (ok) return { def: route.def, params };
    }
    return null;
  }
}
