import { describe, expect, it } from 'vitest';
import { planRuns } from '../../../chat/digests/engine.ts';
import { cronPattern, nextRuns, parseCadence, parseTime, runsBetween } from '../../../chat/digests/schedule.ts';
import type { Subscription } from '../../../chat/digests/storage/types.ts';

const TZ = 'America/Chicago';
const local = (d: Date) =>
  new Intl.DateTimeFormat('en-CA', {
    timeZone: TZ,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  })
    .format(d)
    .replace(',', '');

describe('digest schedules', () => {
  it('keeps 07:00 wall clock every day across both 2026 DST changes', () => {
    const spring = nextRuns({ cadence: 'daily', time: '07:00', timeZone: TZ }, new Date('2026-03-06T18:00:00Z'), 4);
    expect(spring.map((d) => d.toISOString())).toEqual([
      '2026-03-07T13:00:00.000Z',
      '2026-03-08T12:00:00.000Z',
      '2026-03-09T12:00:00.000Z',
      '2026-03-10T12:00:00.000Z',
    ]);
    const fall = nextRuns({ cadence: 'daily', time: '07:00', timeZone: TZ }, new Date('2026-10-30T18:00:00Z'), 4);
    expect(fall.map((d) => d.toISOString())).toEqual([
      '2026-10-31T12:00:00.000Z',
      '2026-11-01T13:00:00.000Z',
      '2026-11-02T13:00:00.000Z',
      '2026-11-03T13:00:00.000Z',
    ]);
    for (const d of [...spring, ...fall]) expect(local(d)).toMatch(/ 07:00$/);
  });

  it('fires a 02:30 schedule exactly once on the spring-forward day, and 01:30 once on the fall-back day', () => {
    const spring = runsBetween(
      { cadence: 'daily', time: '02:30', timeZone: TZ },
      new Date('2026-03-07T12:00:00Z'),
      new Date('2026-03-09T12:00:00Z'),
    );
    expect(spring.map(local)).toEqual(['2026-03-08 03:00', '2026-03-09 02:30']);
    const fall = runsBetween(
      { cadence: 'daily', time: '01:30', timeZone: TZ },
      new Date('2026-10-31T12:00:00Z'),
      new Date('2026-11-02T12:00:00Z'),
    );
    expect(fall.map(local)).toEqual(['2026-11-01 01:30', '2026-11-02 01:30']);
  });

  it('weekdays and day lists', () => {
    const wd = nextRuns({ cadence: 'weekdays', time: '07:00', timeZone: TZ }, new Date('2026-11-06T18:00:00Z'), 3); // a Friday
    expect(wd.map(local)).toEqual(['2026-11-09 07:00', '2026-11-10 07:00', '2026-11-11 07:00']);
    expect(parseCadence('fri,mon,WED')).toBe('mon,wed,fri');
    expect(cronPattern('mon,wed,fri', '7:05')).toBe('5 7 * * 1,3,5');
    expect(() => parseCadence('mon,funday')).toThrow(/"funday" is not a day/);
    expect(() => parseTime('25:00')).toThrow(/"25:00" is not a time/);
    expect(parseTime('7:30')).toBe('07:30');
  });

  it('plans catch-up: runs inside the grace period pending, older ones skipped', () => {
    const sub = {
      id: 'd1',
      cadence: 'daily',
      time: '07:00',
      timeZone: TZ,
      nextRunAt: new Date('2026-11-02T13:00:00Z'),
    } as Subscription;
    const plan = planRuns(sub, new Date('2026-11-04T14:30:00Z'), 2 * 3600_000);
    expect(plan.runs.map((r) => [local(r.scheduledFor), r.status])).toEqual([
      ['2026-11-02 07:00', 'skipped'],
      ['2026-11-03 07:00', 'skipped'],
      ['2026-11-04 07:00', 'pending'],
    ]);
    expect(local(plan.nextRunAt!)).toBe('2026-11-05 07:00');
  });
});
