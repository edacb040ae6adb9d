/**
 * Acknowledgements first, shared by Slack and Teams: work queued for after the acknowledgements waits while a
 * request is unanswered (at most MAX_WAIT_MS), then goes in the order it came, one piece a turn of the event loop,
 * so that a request read in between holds back the rest until it is answered.
 */
import { EventEmitter } from 'node:events';
import type { ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import { MAX_WAIT_MS, trackUnanswered, yieldToPendingAcks } from '../../base/pending-acks.ts';

/** A response as the count sees it: something that closes once answered. */
const response = () => new EventEmitter() as unknown as ServerResponse;
const answer = (res: ServerResponse) => (res as unknown as EventEmitter).emit('close');
const turn = () => new Promise((resolve) => setImmediate(resolve));
/** Resolves with `done` once `work` has settled, or with 'still waiting' after half the cap. */
const within = (work: Promise<unknown>) =>
  Promise.race([
    work.then(() => 'done'),
    new Promise((resolve) => setTimeout(resolve, MAX_WAIT_MS / 2)).then(() => 'still waiting'),
  ]);

describe('work queued for after the acknowledgements', () => {
  it('goes at once when nothing is unanswered', async () => {
    expect(await within(yieldToPendingAcks())).toBe('done');
  });

  it('waits while a request is unanswered, and goes once it is answered', async () => {
    const res = response();
    trackUnanswered(res);
    const work = yieldToPendingAcks();
    expect(await within(work)).toBe('still waiting');
    answer(res);
    expect(await within(work)).toBe('done');
  });

  it('goes after MAX_WAIT_MS whatever is still unanswered', async () => {
    const res = response();
    trackUnanswered(res);
    const started = Date.now();
    await yieldToPendingAcks();
    expect(Date.now() - started).toBeGreaterThanOrEqual(MAX_WAIT_MS - 2);
    answer(res);
  });

  it('stops waiting for a request let go before its answer (an invoke whose answer is its work)', async () => {
    const letGo = trackUnanswered(response());
    const work = yieldToPendingAcks();
    await turn();
    letGo();
    expect(await within(work)).toBe('done');
  });

  it('goes in the order it came, one piece a turn, and a request read in between holds back the rest', async () => {
    const first = response();
    trackUnanswered(first);
    const second = response();
    const ran: number[] = [];
    const works = [1, 2, 3].map((n) =>
      yieldToPendingAcks().then(() => {
        ran.push(n);
        // A request read while the first piece of work runs.
        if (n === 1) trackUnanswered(second);
      }),
    );
    await turn();
    answer(first);
    expect(await within(Promise.all(works))).toBe('still waiting');
    expect(ran).toEqual([1]);
    answer(second);
    await Promise.all(works);
    expect(ran).toEqual([1, 2, 3]);
  });
});
