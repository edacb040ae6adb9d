/**
 * Whose records a home shows, from what the person follows: every customer when none is followed; a group stands
 * for itself and its locations; a followed department brings the units that serve it (its cost center, or a name
 * that contains the other) and a followed unit the departments it serves, as `short <customer> <department>` decides.
 */
import { describe, expect, it } from 'vitest';
import type { FollowedPlace } from '../../../chat/home/follows.ts';
import { homeScope } from '../../../chat/home/scope.ts';
import type { Customer, Department, Unit } from '../../../shared/index.ts';

const customer = (id: string, name: string, isGroup = false): Customer => ({
  id,
  name,
  is_group: isGroup,
  created_at: '2024-01-01T00:00:00Z',
  departments: [],
});
const unit = (id: string, customerId: string, name: string, costCenter: string | null = null): Unit => ({
  id,
  customer_id: customerId,
  name,
  building: null,
  floor: null,
  unit_type: null,
  cost_center: costCenter,
  cart_count: 1,
  is_active: true,
});
const department = (id: string, customerId: string, name: string, costCenter: string | null = null): Department => ({
  id,
  customer_id: customerId,
  name,
  cost_center_code: costCenter,
});

const mercy = customer('c-group', 'Mercy Health', true);
const general = customer('c-general', 'Mercy General Hospital');
const west = customer('c-west', 'Mercy West Surgery Center');
const hotel = customer('c-hotel', 'Harborview Hotel');
const customers = [mercy, general, west, hotel];
const units = [
  unit('u-icu', 'c-general', 'ICU North', '4100'),
  unit('u-4w', 'c-general', '4 West Med-Surg'),
  unit('u-er', 'c-general', 'Emergency Department'),
];
const departments = [
  department('d-icu', 'c-general', 'Intensive Care', '4100'),
  department('d-4w', 'c-general', 'Med-Surg 4 West'),
  department('d-er', 'c-general', 'Emergency'),
];

const place = (kind: FollowedPlace['kind'], id: string): FollowedPlace => ({ kind, id, customerId: 'c-general' });

describe('the scope of a home', () => {
  it('is every customer, and every record of theirs, when the person follows none', () => {
    const s = homeScope({ customerIds: [], places: [] }, customers);
    for (const c of [...customers.map((x) => x.id), null]) expect(s.customer(c)).toBe(true);
    expect(s.unit('c-hotel', null)).toBe(true);
    expect(s.department(null, null)).toBe(true);
  });

  it('is the customers followed, a group with its locations, and nothing with no customer', () => {
    const s = homeScope({ customerIds: ['c-group'], places: [] }, customers);
    expect(s.customer('c-group')).toBe(true);
    expect(s.customer('c-general')).toBe(true);
    expect(s.customer('c-west')).toBe(true);
    expect(s.customer('c-hotel')).toBe(false);
    expect(s.customer(null)).toBe(false);
    expect(s.department('c-hotel', 'd-anything')).toBe(false);
  });

  it('narrows a customer to a followed department and the units that serve it, leaving the others whole', () => {
    const s = homeScope(
      { customerIds: ['c-general', 'c-hotel'], places: [place('department', 'd-icu')] },
      customers,
      units,
      departments,
    );
    expect(s.department('c-general', 'd-icu')).toBe(true);
    expect(s.department('c-general', 'd-4w')).toBe(false);
    expect(s.department('c-general', null)).toBe(false);
    // Its cost center.
    expect(s.unit('c-general', 'u-icu')).toBe(true);
    expect(s.unit('c-general', 'u-4w')).toBe(false);
    // A customer without places followed keeps every record.
    expect(s.department('c-hotel', 'd-lobby')).toBe(true);
    expect(s.unit('c-hotel', null)).toBe(true);
  });

  it('narrows a customer to a followed unit and the departments it serves (one name containing the other)', () => {
    const s = homeScope({ customerIds: ['c-general'], places: [place('unit', 'u-er')] }, customers, units, departments);
    expect(s.unit('c-general', 'u-er')).toBe(true);
    expect(s.unit('c-general', 'u-icu')).toBe(false);
    expect(s.department('c-general', 'd-er')).toBe(true);
    expect(s.department('c-general', 'd-icu')).toBe(false);
  });
});
