/**
 * The deadline a person waiting in Slack is given, on its own: with work that never settles, work that settles
 * after the interim moment, and work that is quick.
 */
import { describe, expect, it } from 'vitest';
import { answerInTime } from '../../../chat/answers/answer-in-time.ts';

const deadlines = { interimMs: 50, deadlineMs: 300 };
const settleAfter = <T>(ms: number, value: T) => new Promise<T>((resolve) => setTimeout(() => resolve(value), ms));

describe('answerInTime', () => {
  it('work that never settles: not in time at the deadline, after the interim was shown', async () => {
    const events: string[] = [];
    const started = Date.now();
    const outcome = await answerInTime(new Promise<never>(() => {}), {
      deadlines,
      onInterim: async () => {
        events.push('interim');
      },
      onLate: () => events.push('late'),
    });
    expect(outcome).toEqual({ inTime: false });
    expect(Date.now() - started).toBeGreaterThanOrEqual(deadlines.deadlineMs - 5);
    expect(events).toEqual(['interim', 'late']);
  });

  it('work that settles after the interim moment: its value, returned only once the interim was delivered', async () => {
    let interimDelivered = false;
    const outcome = await answerInTime(settleAfter(100, 'answer'), {
      deadlines,
      onInterim: async () => {
        await settleAfter(150, undefined);
        interimDelivered = true;
      },
    });
    expect(outcome).toEqual({ inTime: true, value: 'answer' });
    expect(interimDelivered).toBe(true);
  });

  it('quick work: its value and no interim', async () => {
    let interim = false;
    const outcome = await answerInTime(Promise.resolve(42), {
      deadlines,
      onInterim: async () => {
        interim = true;
      },
    });
    expect(outcome).toEqual({ inTime: true, value: 42 });
    await settleAfter(100, undefined);
    expect(interim).toBe(false);
  });
});
