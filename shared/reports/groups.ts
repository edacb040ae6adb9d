/**
 * Group customers. A group (`is_group`) rolls up locations and is billed through them: its own A/R row is
 * always $0.00. The API does not say which customers are a group's locations; the product decides (README,
 * "Where the specification is silent"): they are the visible non-group customers whose name begins with the
 * group name's first word ("Mercy Health" -> "Mercy General Hospital", "Mercy West Surgery Center").
 */
import { InvalidParamsError } from '../errors.ts';
import { normalizeName } from '../names.ts';
import type { Customer } from '../schemas/customers.ts';

export function groupLocations(group: Customer, customers: readonly Customer[]): Customer[] {
  if (!group.is_group) return [];
  const first = normalizeName(group.name).split(' ')[0];
  if (!first) return [];
  return customers.filter(
    (c) => !c.is_group && c.id !== group.id && `${normalizeName(c.name)} `.startsWith(`${first} `),
  );
}

/** The customers an answer about `customer` covers: itself, and for a group its locations too. */
export function coveredCustomers(customer: Customer, customers: readonly Customer[]): Customer[] {
  return [customer, ...groupLocations(customer, customers)];
}

/**
 * Deliveries, counts and rewash belong to the locations, not to a group: asked about a group, say so and name
 * them (instead of answering with nothing).
 */
export function checkNotGroup(customer: Customer, customers: readonly Customer[]): void {
  if (!customer.is_group) return;
  const names = groupLocations(customer, customers).map((c) => c.name);
  throw new InvalidParamsError({
    message: `${customer.name} is a group, supplied and billed through its locations: ask for one of them${names.length ? ` (${names.join(', ')})` : ''}`,
  });
}
