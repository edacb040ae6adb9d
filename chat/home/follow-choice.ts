/**
 * What a person chose to follow, read: the values a platform's menu sends (customer ids, `d:<id>` and `u:<id>` for a
 * department or a unit), or names typed after `home follow` and `home places` (in the console, or by hand), each
 * resolved against what the key sees. A name that fits several, or none, is one sentence and changes nothing.
 */
import type { Customer, Unit } from '../../shared/index.ts';
import { normalizeName } from '../../shared/names.ts';
import { line, type Rich } from '../content/rich.ts';
import type { LinenService } from '../linen.ts';
import type { FollowedPlace } from './follows.ts';
import { placeValue } from './home-data.ts';

export type Chosen<T> = { chosen: T } | { problem: Rich };

/** Customers by id or by name (a unique part of a name too, as commands take them). */
export async function customersChosen(items: readonly string[], linen: LinenService): Promise<Chosen<Customer[]>> {
  const customers = await linen.customers();
  const chosen: Customer[] = [];
  for (const item of items) {
    const byId = customers.find((c) => c.id === item);
    const found = byId ? { kind: 'found' as const, customer: byId } : await linen.resolveCustomer(item);
    if (found.kind === 'none') return { problem: [`No customer “${line(item)}” is visible to this key.`] };
    if (found.kind === 'choose')
      return {
        problem: [
          `“${line(item)}” matches ${found.matches.length} customers (${found.matches.map((c) => line(c.name)).join(', ')}); type more of the name.`,
        ],
      };
    if (!chosen.some((c) => c.id === found.customer.id)) chosen.push(found.customer);
  }
  return { chosen };
}

interface Candidate {
  place: FollowedPlace;
  name: string;
  label: string;
}

/** The departments and units of the followed customers, by their menu value or their name. */
export function placesChosen(
  items: readonly string[],
  followed: readonly Customer[],
  units: readonly Unit[],
): Chosen<FollowedPlace[]> {
  const candidates: Candidate[] = followed.flatMap((c) => [
    ...c.departments.map((d) => ({
      place: { kind: 'department' as const, id: d.id, customerId: c.id },
      name: d.name,
      label: `${c.name} › ${d.name}`,
    })),
    ...units
      .filter((u) => u.customer_id === c.id)
      .map((u) => ({
        place: { kind: 'unit' as const, id: u.id, customerId: c.id },
        name: u.name,
        label: `${c.name} › ${u.name}`,
      })),
  ]);
  if (followed.length === 0 && items.length)
    return {
      problem: ['Follow a customer first: departments and units are chosen among those of the customers you follow.'],
    };
  const chosen: FollowedPlace[] = [];
  for (const item of items) {
    const q = normalizeName(item);
    const byValue = candidates.filter((c) => placeValue(c.place.kind, c.place.id) === item);
    const byName = candidates.filter((c) => normalizeName(c.name) === q || normalizeName(c.label) === q);
    const matches = byValue.length
      ? byValue
      : byName.length
        ? byName
        : candidates.filter((c) => normalizeName(c.label).includes(q));
    if (matches.length === 0)
      return { problem: [`None of the customers you follow has a department or unit “${line(item)}”.`] };
    if (matches.length > 1)
      return {
        problem: [
          `“${line(item)}” fits ${matches.length} departments or units (${matches.map((m) => line(m.label)).join(', ')}); name the customer too.`,
        ],
      };
    const place = matches[0]!.place;
    if (!chosen.some((p) => p.kind === place.kind && p.id === place.id)) chosen.push(place);
  }
  return { chosen };
}
