/**
 * The API listings a query of a set reads: the values its filter folds (one listing per combination, at most
 * MAX_LISTINGS of them; past that the widest property is left to the feed), one listing per customer where the
 * API's rows name none, every status where the API's default leaves some out, and the date window (a window of
 * a capped endpoint over 92 days is split by the client).
 */
import { addDays, daysInclusive } from '../shared/dates.ts';
import { badRequest, notSupported } from './errors.ts';
import type { Filter } from './query/filter.ts';
import { daysOf, mentions, valuesOf } from './query/fold.ts';
import type { ApiRow, EntitySet, ListParams } from './sets.ts';

export interface Listing {
  params: ListParams;
  /** Fields the listing gives each of its rows (the customer it was asked for). */
  tag: ApiRow;
}

export const MAX_LISTINGS = 24;
/** The longest window of a capped endpoint one query reads: ten years, 40 requests of 92 days at the least. */
export const MAX_CAPPED_WINDOW_DAYS = 3_660;

interface Dimension {
  param: string;
  values: string[];
  /** Whether the feed may leave it to its own filter instead (false: the API needs one listing per value). */
  droppable: boolean;
  /** The row field the listing's value is given as (the customer it was asked for). */
  tag?: string | undefined;
}

export interface PlanContext {
  /** The ids of the customers the key sees (one listing each, where the API's rows name none). */
  customerIds(): Promise<string[]>;
  /** Today's UTC day: a window with only a start ends the day after (today everywhere on Earth). */
  todayUtc: string;
}

function windowParams(set: EntitySet, filter: Filter | undefined, ctx: PlanContext): ListParams | 'empty' {
  const w = set.fold.window;
  if (!w) return {};
  const days = daysOf(filter, w.property, w.kind);
  if (days === 'empty') return 'empty';
  let { from, to } = days;
  if (w.capped && from === undefined && to !== undefined)
    throw badRequest(
      `A filter on ${w.property} of ${set.name} with an end needs a start too (${w.property} ge …): without one the API reads only the 7 days before the end.`,
      'window_needs_start',
    );
  if (w.capped && from !== undefined) {
    to ??= addDays(ctx.todayUtc, 1);
    if (from > to) return 'empty';
    if (daysInclusive(from, to) > MAX_CAPPED_WINDOW_DAYS)
      throw badRequest(
        `${set.name} reads at most ${MAX_CAPPED_WINDOW_DAYS.toLocaleString('en-US')} days (ten years) in one query; narrow the filter on ${w.property}.`,
        'window_too_long',
      );
  }
  const out: ListParams = {};
  if (from !== undefined) out.from = from;
  if (to !== undefined) out.to = to;
  return out;
}

async function dimensions(
  set: EntitySet,
  filter: Filter | undefined,
  ctx: PlanContext,
): Promise<Dimension[] | 'empty'> {
  const dims: Dimension[] = [];
  for (const [property, fp] of Object.entries(set.fold.params)) {
    const values = valuesOf(filter, property);
    const mode = property === 'customer_id' ? set.fold.customers : undefined;
    if (mode === 'echo') {
      if (values === 'all') {
        if (mentions(filter, property))
          throw notSupported(
            `${set.name} is read for one customer at a time: filter with customer_id eq '…' alone, or not on customer_id at all.`,
          );
        continue;
      }
      if (values.size > 1)
        throw notSupported(`${set.name} is read for one customer at a time: filter on a single customer_id.`);
      const [id] = [...values];
      if (id === undefined || id === '') return 'empty';
      dims.push({ param: fp.param, values: [id], droppable: false, tag: property });
      continue;
    }
    if (mode === 'each') {
      const ids = values === 'all' ? await ctx.customerIds() : [...values].filter((v) => v !== '');
      if (ids.length === 0) return 'empty';
      dims.push({ param: fp.param, values: ids, droppable: false, tag: property });
      continue;
    }
    const every = set.fold.everyValue?.property === property ? set.fold.everyValue.values : undefined;
    // A value the API would refuse (an empty id, a status it does not list) is left to the feed's own filter.
    const foldable = values !== 'all' && [...values].every((v) => v !== '' && (!fp.values || fp.values.includes(v)));
    if (foldable) {
      if (values.size === 0) return 'empty';
      dims.push({ param: fp.param, values: [...values], droppable: every === undefined });
    } else if (every) dims.push({ param: fp.param, values: [...every], droppable: false });
  }
  const size = () => dims.reduce((n, d) => n * d.values.length, 1);
  while (size() > MAX_LISTINGS) {
    const widest = dims.filter((d) => d.droppable).sort((a, b) => b.values.length - a.values.length)[0];
    if (!widest) break;
    dims.splice(dims.indexOf(widest), 1);
  }
  return dims;
}

/** The listings of a query, in the order they are read; none when the filter can match nothing. */
export async function planListings(set: EntitySet, filter: Filter | undefined, ctx: PlanContext): Promise<Listing[]> {
  const window = windowParams(set, filter, ctx);
  if (window === 'empty') return [];
  const dims = await dimensions(set, filter, ctx);
  if (dims === 'empty') return [];
  const echo = set.fold.customers === 'echo' && !dims.some((d) => d.tag === 'customer_id');
  let listings: Listing[] = [{ params: { ...window }, tag: echo ? { customer_id: null } : {} }];
  for (const d of dims)
    listings = listings.flatMap((l) =>
      d.values.map((v) => ({
        params: { ...l.params, [d.param]: v },
        tag: d.tag ? { ...l.tag, [d.tag]: v } : l.tag,
      })),
    );
  return listings;
}
