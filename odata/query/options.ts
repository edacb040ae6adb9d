/**
 * The system query options of a request for an entity set: `$filter`, `$select`, `$orderby`, `$top`, `$skip`,
 * `$count`, `$format` (JSON only) and the feed's own `$skiptoken`. The options OData defines and the feed does not
 * do (`$expand`, `$search`, `$apply`, ...) get a 501 sentence; anything else a 400 sentence.
 */
import type { PrimitiveProperty } from '../edm.ts';
import { badRequest, notSupported } from '../errors.ts';
import type { EntitySet } from '../sets.ts';
import { type Filter, parseFilter } from './filter.ts';

export interface OrderKey {
  path: string[];
  prop: PrimitiveProperty;
  desc: boolean;
}

export interface FeedQuery {
  filter: Filter | undefined;
  /** Top-level property names, in the set's order; undefined: all. */
  select: string[] | undefined;
  orderby: OrderKey[];
  top: number | undefined;
  skip: number | undefined;
  count: boolean;
  skiptoken: string | undefined;
  /** The options as received, `$skiptoken` aside: what a next link repeats. */
  carried: [string, string][];
}

const NOT_DONE: Record<string, string> = {
  $expand: 'The feed has no navigation properties to expand: each set is a table of its own, joined by its ids.',
  $search: "The feed does not search; filter with contains(property,'text') instead.",
  $apply: 'The feed does not aggregate; load the rows and let the tool aggregate them.',
  $compute: 'The feed does not compute properties; load the rows and compute them in the tool.',
  $index: 'The feed does not take $index.',
  $schemaversion: 'The feed has one schema version and does not take $schemaversion.',
  $levels: 'The feed has no recursive properties for $levels.',
  $deltatoken: 'The feed does not track changes: refresh the whole query.',
};
const KNOWN = new Set(['$filter', '$select', '$orderby', '$top', '$skip', '$count', '$skiptoken', '$format']);
const PATH = /^[A-Za-z_][A-Za-z0-9_]*(\/[A-Za-z_][A-Za-z0-9_]*)*$/;
const MAX_INT = 2_147_483_647;

function count(name: string, raw: string): number {
  if (!/^\d{1,10}$/.test(raw) || Number(raw) > MAX_INT)
    throw badRequest(
      `${name} must be a whole number from 0 to ${MAX_INT} (got "${raw.slice(0, 20)}").`,
      'invalid_option',
    );
  return Number(raw);
}

function select(raw: string, set: EntitySet): string[] | undefined {
  const names = raw.split(',').map((s) => s.trim());
  if (names.some((n) => n === ''))
    throw badRequest('$select lists property names separated by commas.', 'invalid_option');
  if (names.includes('*')) return undefined;
  for (const n of names) {
    if (n.includes('/') && PATH.test(n))
      throw notSupported('The feed selects whole properties: name the property, not a field inside it.');
    if (!set.properties.some((p) => p.name === n))
      throw badRequest(`${set.name} has no property ${JSON.stringify(n.slice(0, 60))} to select.`, 'unknown_property');
  }
  return set.properties.filter((p) => names.includes(p.name)).map((p) => p.name);
}

function orderby(raw: string, set: EntitySet): OrderKey[] {
  return raw.split(',').map((item) => {
    const m = /^\s*(\S+?)(?:\s+(asc|desc))?\s*$/.exec(item);
    if (!m) throw badRequest('$orderby lists properties, each optionally followed by asc or desc.', 'invalid_option');
    const name = m[1]!;
    if (name.includes('(')) throw notSupported('The feed orders by properties, not by expressions.');
    if (!PATH.test(name))
      throw badRequest(`$orderby cannot read ${JSON.stringify(name.slice(0, 60))}.`, 'invalid_option');
    const path = name.split('/');
    let list = set.properties;
    let prop = undefined as (typeof list)[number] | undefined;
    for (const seg of path) {
      prop = list.find((p) => p.name === seg);
      if (!prop)
        throw badRequest(
          `${set.name} has no property ${JSON.stringify(name.slice(0, 60))} to order by.`,
          'unknown_property',
        );
      if (prop.kind === 'complex') list = prop.properties;
    }
    if (prop?.kind !== 'primitive')
      throw badRequest(
        `${name} is ${prop?.kind === 'complex' ? 'a group of fields' : 'a list'}: order by a single value.`,
        'invalid_option',
      );
    return { path, prop, desc: m[2] === 'desc' };
  });
}

export function parseQuery(search: URLSearchParams, set: EntitySet): FeedQuery {
  const seen = new Set<string>();
  const q: FeedQuery = {
    filter: undefined,
    select: undefined,
    orderby: [],
    top: undefined,
    skip: undefined,
    count: false,
    skiptoken: undefined,
    carried: [],
  };
  for (const [rawName, value] of search) {
    const name = rawName.startsWith('$') ? rawName.toLowerCase() : rawName;
    if (seen.has(name)) throw badRequest(`${name} is given twice; give it once.`, 'invalid_option');
    seen.add(name);
    if (NOT_DONE[name]) throw notSupported(NOT_DONE[name]!);
    if (!KNOWN.has(name))
      throw badRequest(
        `The feed does not know the query option ${JSON.stringify(rawName.slice(0, 40))}.`,
        'invalid_option',
      );
    if (name !== '$skiptoken') q.carried.push([name, value]);
    switch (name) {
      case '$filter':
        q.filter = parseFilter(value, set.properties, set.name);
        break;
      case '$select':
        q.select = select(value, set);
        break;
      case '$orderby':
        q.orderby = orderby(value, set);
        break;
      case '$top':
        q.top = count('$top', value);
        break;
      case '$skip':
        q.skip = count('$skip', value);
        break;
      case '$count':
        if (value !== 'true' && value !== 'false') throw badRequest('$count is true or false.', 'invalid_option');
        q.count = value === 'true';
        break;
      case '$skiptoken':
        q.skiptoken = value;
        break;
      default:
        if (!/^(json|application\/json(;.*)?)$/i.test(value))
          throw badRequest('The feed answers in JSON only: leave $format out, or set it to json.', 'invalid_option');
    }
  }
  return q;
}
