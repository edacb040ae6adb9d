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

/**
 * The past does not change during the day: data seeded at 08:00 and at 17:00 of one day agrees on every delivery
 * day, manifest, invoice and payment before that day (the sandbox seeds "as of now" when no day is pinned, so
 * `npm start` asked the same question twice in a day gives the same answer).
 */
it('holds the same history before today whatever the hour it is seeded at', () => {
  const at = (time: string) =>
    generateSandboxData({
      today: '2026-11-22',
      timeZone: 'America/Chicago',
      seed: 'linen',
      asOf: fromZonedTime(`2026-11-22T${time}:00`, 'America/Chicago').getTime(),
    });
  const [morning, evening] = [at('08:00'), at('17:00')];
  const before = (iso: string | null) => iso !== null && iso < '2026-11-22T06:00:00Z';
  expect(evening.daily_deliveries.filter((r) => r.date < '2026-11-22')).toEqual(
    morning.daily_deliveries.filter((r) => r.date < '2026-11-22'),
  );
  // A manifest delivered before today is as it was; the rewash it held may move on during the day.
  const settled = (d: typeof morning) =>
    d.manifests.filter((m) => before(m.delivered_at)).map(({ rewash_links: _links, held_rewash: _held, ...m }) => m);
  expect(settled(evening)).toEqual(settled(morning));
  const issued = (d: typeof morning) =>
    d.invoices.filter((i) => before(i.issued_at)).map((i) => [i.invoice_number, i.issued_at, i.total_cents]);
  expect(issued(evening)).toEqual(issued(morning));
});
