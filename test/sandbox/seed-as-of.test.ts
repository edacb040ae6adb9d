/** Data seeded "as of" an instant holds nothing after it but plans (due dates, requested deliveries, PO terms). */
import { fromZonedTime } from 'date-fns-tz';
import { expect, it } from 'vitest';
import { generateSandboxData } from '../../sandbox/seed/index.ts';

const PLANNED = /requested_delivery_date|confirmed_delivery_date|expires_at|due_at|started_at/;

function timestampsAfter(value: unknown, instant: number, path = ''): string[] {
  if (typeof value === 'string') return /^\d{4}-\d\d-\d\dT/.test(value) && Date.parse(value) > instant ? [path] : [];
  if (Array.isArray(value)) return value.flatMap((v, i) => timestampsAfter(v, instant, `${path}[${i}]`));
  if (value && typeof value === 'object') {
    return Object.entries(value).flatMap(([k, v]) => timestampsAfter(v, instant, `${path}.${k}`));
  }
  return [];
}

it.each(['00:20', '06:00', '13:00', '23:50'])('seeded as of %s local holds nothing later but plans', (time) => {
  const asOf = fromZonedTime(`2026-11-22T${time}:00`, 'America/Chicago').getTime();
  const data = generateSandboxData({ today: '2026-11-22', timeZone: 'America/Chicago', seed: 'linen', asOf });
  expect(
    timestampsAfter(data, asOf)
      .filter((p) => !PLANNED.test(p))
      .slice(0, 10),
  ).toEqual([]);
  expect(data.tickets.length).toBeGreaterThan(0);
});

it('refuses an instant outside the day', () => {
  const asOf = fromZonedTime('2026-11-23T01:00:00', 'America/Chicago').getTime();
  expect(() => generateSandboxData({ today: '2026-11-22', timeZone: 'America/Chicago', seed: 'linen', asOf })).toThrow(
    /asOf/,
  );
});
