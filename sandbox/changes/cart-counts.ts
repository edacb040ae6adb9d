/**
 * Cart counts: a count taken for a cart on a day, moved on through its statuses, and the pieces delivered to
 * each line once it is counted (a count "closes short" when some line got fewer than it required).
 *
 * The rules of the seed hold: a line's `required` is `max(0, par - on_hand)`; pieces are delivered (and extra
 * and returned pieces noted) only on a counted, verified or assumed count, and a line closed without a figure is
 * filled to what it required; `counted_at` is set once counted (not for an assumed count), `verified_at` once
 * verified; `unscheduled` says the cart was not due that day.
 */
import type { Cart, CartCount, CartCountStatus, LocalDate } from '../model.ts';
import { invalidParams, notFound } from '../server/errors.ts';
import { type ChangeContext, inserted, isoOf, notAfterToday, type Outcome, replaced } from './context.ts';
import type { AddCartCount, ChangeCartCount, CloseCountShort } from './input.ts';

type CountLine = CartCount['lines'][number];
type LineInput = NonNullable<AddCartCount['lines']>[number];

const CLOSED: ReadonlySet<CartCountStatus> = new Set(['counted', 'verified', 'assumed']);
/** Where each status may go next: forward only, `assumed` (never counted) and `verified` are final. */
const NEXT: Record<CartCountStatus, readonly CartCountStatus[]> = {
  pending: ['in_progress', 'counted', 'assumed', 'verified'],
  in_progress: ['counted', 'assumed', 'verified'],
  counted: ['verified'],
  verified: [],
  assumed: [],
};
const WEEKDAYS = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'] as const;

const byDateThenId = (a: CartCount, b: CartCount): number =>
  a.date !== b.date ? (a.date < b.date ? 1 : -1) : a.id < b.id ? -1 : a.id > b.id ? 1 : 0;

function cartOf(ctx: ChangeContext, id: string): Cart {
  const cart = ctx.data.carts.find((c) => c.id === id);
  if (!cart) throw notFound(`Cart "${id}" was not found.`);
  return cart;
}

function countOf(ctx: ChangeContext, id: string): CartCount {
  const count = ctx.data.cart_counts.find((c) => c.id === id);
  if (!count) throw notFound(`Cart count "${id}" was not found.`);
  return count;
}

function weekdayOf(day: LocalDate): (typeof WEEKDAYS)[number] {
  return WEEKDAYS[new Date(`${day}T00:00:00Z`).getUTCDay()] ?? 'sun';
}

/**
 * `count` moved to `status` with the line figures of `lines`: the one rule every count change goes through.
 * `at` stamps `counted_at`/`verified_at` when the count gets there.
 */
function settle(count: CartCount, status: CartCountStatus, lines: readonly LineInput[], at: () => number): CartCount {
  if (status !== count.status && !NEXT[count.status].includes(status)) {
    const next = NEXT[count.status];
    throw invalidParams(
      `Cart count "${count.id}" is ${count.status}; ${next.length === 0 ? 'it cannot change status any more' : `it can only move on to ${next.join(', ')}`}.`,
    );
  }
  const closed = CLOSED.has(status);
  const closing = closed && !CLOSED.has(count.status);
  const given = new Map<string, LineInput>();
  for (const line of lines) {
    if (given.has(line.item_id)) throw invalidParams(`Item "${line.item_id}" is given twice in "lines".`);
    if (!count.lines.some((l) => l.item_id === line.item_id))
      throw invalidParams(`Item "${line.item_id}" is not on the par of cart ${count.cart_name ?? count.cart_id}.`);
    if (!closed && (line.delivered !== undefined || line.extra !== undefined || line.returned !== undefined))
      throw invalidParams(
        `Pieces are delivered to a count once it is counted, verified or assumed; cart count "${count.id}" would be ${status}.`,
      );
    given.set(line.item_id, line);
  }
  const nextLines = count.lines.map((line): CountLine => {
    const input = given.get(line.item_id);
    const onHand = input?.on_hand ?? line.on_hand;
    const required = Math.max(0, line.par - onHand);
    return {
      ...line,
      on_hand: onHand,
      required,
      delivered: input?.delivered ?? (closing ? required : line.delivered),
      extra: input?.extra ?? line.extra,
      returned: input?.returned ?? line.returned,
    };
  });
  const counted = status === 'counted' || status === 'verified';
  return {
    ...count,
    status,
    counted_at: counted ? (count.counted_at ?? isoOf(at())) : count.counted_at,
    verified_at: status === 'verified' ? (count.verified_at ?? isoOf(at())) : count.verified_at,
    lines: nextLines,
  };
}

/** A new pending count of a cart on a day, each line at the cart's par with nothing on hand. */
function freshCount(ctx: ChangeContext, cart: Cart, date: LocalDate): CartCount {
  if (!cart.is_active) throw invalidParams(`Cart ${cart.name} is retired; only active carts are counted.`);
  notAfterToday(ctx, 'date', date);
  if (date < ctx.data.seeded.first_day)
    throw invalidParams(`"date" (${date}) is before the sandbox's history, which starts ${ctx.data.seeded.first_day}.`);
  const existing = ctx.data.cart_counts.find((c) => c.cart_id === cart.id && c.date === date);
  if (existing)
    throw invalidParams(
      `Cart ${cart.name} already has a count on ${date} ("${existing.id}"); change that one instead.`,
    );
  const unit = ctx.data.units.find((u) => u.id === cart.unit_id);
  return {
    id: ctx.newId(),
    customer_id: cart.customer_id,
    cart_id: cart.id,
    cart_name: cart.name,
    unit_id: cart.unit_id,
    unit_name: unit?.name ?? cart.unit_name,
    date,
    status: 'pending',
    unscheduled: !cart.count_days.includes(weekdayOf(date)),
    counted_at: null,
    verified_at: null,
    lines: cart.par.map((p) => ({
      item_id: p.item_id,
      item_name: p.item_name,
      par: p.par_quantity,
      on_hand: 0,
      required: p.par_quantity,
      delivered: 0,
      extra: 0,
      returned: 0,
    })),
  };
}

function withCount(ctx: ChangeContext, count: CartCount, isNew: boolean): Outcome<CartCount> {
  const cart_counts = isNew
    ? inserted(ctx.data.cart_counts, count, byDateThenId)
    : replaced(ctx.data.cart_counts, count);
  return { next: { ...ctx.data, cart_counts }, answer: count, ids: [count.id] };
}

export function addCartCount(ctx: ChangeContext, input: AddCartCount): Outcome<CartCount> {
  const cart = cartOf(ctx, input.cart_id);
  const fresh = freshCount(ctx, cart, input.date ?? ctx.today);
  return withCount(ctx, settle(fresh, input.status ?? 'pending', input.lines ?? [], ctx.at), true);
}

export function changeCartCount(ctx: ChangeContext, id: string, input: ChangeCartCount): Outcome<CartCount> {
  const count = countOf(ctx, id);
  if (input.status === undefined && (input.lines === undefined || input.lines.length === 0))
    throw invalidParams('Nothing to change: give "status" or "lines".');
  return withCount(ctx, settle(count, input.status ?? count.status, input.lines ?? [], ctx.at), false);
}

/**
 * The cart's count of a day (today by default; a new one if it has none) closed with one line `short_by` pieces
 * under what it required, every other line not yet delivered filled.
 */
export function closeCountShort(ctx: ChangeContext, input: CloseCountShort): Outcome<CartCount> {
  const cart = cartOf(ctx, input.cart_id);
  const date = input.date ?? ctx.today;
  const existing = ctx.data.cart_counts.find((c) => c.cart_id === cart.id && c.date === date);
  const count = existing ?? freshCount(ctx, cart, date);
  const line =
    input.item_id !== undefined
      ? count.lines.find((l) => l.item_id === input.item_id)
      : count.lines.find((l) => l.required >= input.short_by);
  if (!line) {
    if (input.item_id !== undefined)
      throw invalidParams(`Item "${input.item_id}" is not on the par of cart ${cart.name}.`);
    throw invalidParams(`No line of cart ${cart.name}'s count of ${date} requires ${input.short_by} pieces or more.`);
  }
  if (line.required < input.short_by)
    throw invalidParams(
      `Cart ${cart.name}'s count of ${date} requires ${line.required} ${line.item_name}; it cannot close ${input.short_by} short.`,
    );
  const status = input.status ?? (CLOSED.has(count.status) ? count.status : 'counted');
  const settled = settle(count, status, [{ item_id: line.item_id, delivered: line.required - input.short_by }], ctx.at);
  return withCount(ctx, settled, existing === undefined);
}
