/**
 * Group customers. The API says only that a group (`is_group`) rolls up child locations; a customer record names
 * no parent. So the product never replaces a group's own data with anything else: asked for a group, it asks the
 * API for the group and shows what comes back. Only when the group has nothing of its own does an answer turn to
 * the locations it can *suggest*: the visible non-group customers whose name begins with the group name's first
 * word ("Mercy Health" -> "Mercy General Hospital", "Mercy West Surgery Center"). What it adds from them is
 * labelled as theirs and never summed into the group's own line (README, "Where the specification is silent").
 */
import { InvalidParamsError } from '../errors.ts';
import { normalizeName } from '../names.ts';
import type { Customer } from '../schemas/customers.ts';

/** The locations a group's name suggests (a guess by name, never a fact of the API); none for a non-group. */
export function groupLocations(group: Customer, customers: readonly Customer[]): Customer[] {
  if (!group.is_group) return [];
  const first = normalizeName(group.name).split(' ')[0];
  if (!first) return [];
  return customers.filter(
    (c) => !c.is_group && c.id !== group.id && `${normalizeName(c.name)} `.startsWith(`${first} `),
  );
}

/** Names joined for a sentence: at most `max`, then how many more. */
export function nameList(names: readonly string[], max = 10): string {
  const shown = names.slice(0, max).join(', ');
  return names.length > max ? `${shown} and ${names.length - max} more` : shown;
}

/** "its locations that this key sees, found by name: A, B", or that the key sees none. */
export function locationsPhrase(group: Customer, customers: readonly Customer[]): string {
  const names = groupLocations(group, customers).map((c) => c.name);
  return names.length
    ? `its locations visible to this key (found by name): ${nameList(names)}`
    : 'this key sees none of its locations';
}

/**
 * The sentence for a group that has none of `what` of its own (deliveries, cart counts, rewash): answers about a
 * place cannot stand in for one another, so it names the locations to ask for instead.
 */
export function groupWithoutOwn(
  group: Customer,
  customers: readonly Customer[],
  what: string,
  when?: { from?: string | undefined; to: string },
): InvalidParamsError {
  const locations = groupLocations(group, customers);
  const window = when ? (when.from ? ` from ${when.from} to ${when.to}` : ` up to ${when.to}`) : '';
  return new InvalidParamsError({
    message: `${group.name} is a group and has no ${what} of its own${window}; ${
      locations.length
        ? `ask for one of its locations (found by name): ${nameList(locations.map((c) => c.name))}`
        : 'this key sees none of its locations'
    }`,
  });
}
