/**
 * Which customer an answer is about: a name or id typed in a command resolved against what the key sees (or the
 * choices to pick from, or that it sees no such customer), a customer followed by a department or unit, a
 * department by name, and a listing for a group that has no rows of its own (its locations' rows instead, said so).
 */

import { InvalidParamsError, NotFoundError } from '../../shared/errors.ts';
import { groupLocations, locationsPhrase } from '../../shared/reports/index.ts';
import { resolveCustomerFrom } from '../../shared/reports/lookup.ts';
import type { Customer } from '../../shared/schemas/customers.ts';
import type { Content } from '../content/document.ts';
import type { LinenService } from '../linen.ts';
import { PLAIN_SURFACE, type Surface } from '../surface.ts';
import { chooseCustomerView, errorView } from '../views/common.ts';

/** A customer found, or what to answer instead: the choices, or that the key sees no such customer. */
export type Resolved = { customer: Customer } | { reply: Content };

/** What resolving needs of an answer's context. */
export interface CustomerContext {
  linen: LinenService;
  surface?: Surface | undefined;
  /** The command's text about another customer: what each choice replays. */
  commandFor(customerId: string): string;
}

export async function customerFor(ctx: CustomerContext, input: string): Promise<Resolved> {
  const r = await ctx.linen.resolveCustomer(input);
  const organization = (ctx.surface ?? PLAIN_SURFACE).organization;
  if (r.kind === 'found') return { customer: r.customer };
  if (r.kind === 'choose') {
    return { reply: chooseCustomerView(r.input, r.matches, (c) => ctx.commandFor(c.id)) };
  }
  const all = await ctx.linen.customers();
  return {
    reply:
      all.length > 0 && all.length <= 25
        ? chooseCustomerView(
            r.input,
            all,
            (c) => ctx.commandFor(c.id),
            `No customer named “${r.input}” is visible to this ${organization}'s key. Customers it sees:`,
          )
        : errorView(`No customer named “${r.input}” is visible to this ${organization}'s key.`),
  };
}

/** The customer a command names, if it names one: resolved, or the answer that asks which (or says none is seen). */
export async function namedCustomer(
  ctx: CustomerContext,
  input: string | undefined,
): Promise<{ customer: Customer | undefined } | { reply: Content }> {
  return input ? customerFor(ctx, input) : { customer: undefined };
}

export const namesOf = (customers: readonly Customer[]) => new Map(customers.map((c) => [c.id, c.name]));

/** A customer's department by id, exact name, or the one name containing what was typed. */
export function departmentOf(customer: Customer, typed: string): { id: string; name: string } | undefined {
  const q = typed.trim().toLowerCase();
  const depts = customer.departments;
  const containing = depts.filter((d) => d.name.toLowerCase().includes(q));
  return (
    depts.find((d) => d.id === typed.trim()) ??
    depts.find((d) => d.name.toLowerCase() === q) ??
    (containing.length === 1 ? containing[0] : undefined)
  );
}

/** What a listing answer shows: the rows, and who they belong to when a group's locations stand in for it. */
export interface Scoped<T> {
  rows: T[];
  /** Set when the customer asked is a group with none of its own: whose rows these are instead. */
  note?: string | undefined;
}

/**
 * The rows of `list` for the customer asked (every customer without one), as the API returns them. Only a group
 * with none of its own gets its suggested locations' rows instead, with a note saying so and whose they are.
 */
export async function ownOrLocations<T>(
  ctx: CustomerContext,
  customer: Customer | undefined,
  what: string,
  list: (customerIds: string[] | undefined) => Promise<T[]>,
): Promise<Scoped<T>> {
  const own = await list(customer ? [customer.id] : undefined);
  if (!customer?.is_group || own.length) return { rows: own };
  const customers = await ctx.linen.customers();
  const locations = groupLocations(customer, customers);
  const note = `${customer.name} is a group with no ${what} of its own; ${locationsPhrase(customer, customers)}.`;
  return { rows: locations.length ? await list(locations.map((c) => c.id)) : [], note };
}

/**
 * A customer followed by a department or unit, typed without quotes (`Mercy General Hospital ICU`): the longest
 * run of leading words that names one customer is the customer, the rest the place.
 */
export async function customerAndPlace(
  ctx: CustomerContext,
  text: string,
  placeGiven: boolean,
): Promise<{ customer: Customer; place?: string | undefined } | { reply: Content }> {
  const whole = await ctx.linen.resolveCustomer(text);
  if (whole.kind === 'found' || placeGiven) return customerFor(ctx, text);
  const customers = await ctx.linen.customers();
  const words = text.split(/\s+/);
  for (let n = words.length - 1; n >= 1; n--) {
    try {
      return { customer: resolveCustomerFrom(words.slice(0, n).join(' '), customers), place: words.slice(n).join(' ') };
    } catch (err) {
      if (!(err instanceof NotFoundError) && !(err instanceof InvalidParamsError)) throw err;
    }
  }
  return customerFor(ctx, text);
}
