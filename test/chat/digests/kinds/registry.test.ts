/**
 * The digest kinds' registry, pure: the `digest` command's help derived from the kinds (the service's reads as the
 * help has always read); a throwaway kind written as one module (test/support/past-due-kind.ts) in a registry of
 * its own gains its words, help, default cadence, option words and access class, with nothing else changed; a
 * registry refuses two kinds named alike or sharing a word.
 */
import { describe, expect, it } from 'vitest';
import { isAccountingDigest } from '../../../../chat/connections/access.ts';
import { digestHelp } from '../../../../chat/digests/kinds/help.ts';
import { createDigestKinds, DIGEST_COMMAND_HELP, DIGEST_KINDS } from '../../../../chat/digests/kinds/index.ts';
import { ArgsError, parseSubscribeArgs, tokenize } from '../../../../chat/digests/subscribe-args.ts';
import { pastDueDigest } from '../../../support/past-due-kind.ts';

const withPastDue = createDigestKinds([...DIGEST_KINDS.all, pastDueDigest]);
const parse = (args: string, kinds = withPastDue) => parseSubscribeArgs(tokenize(args), { time: '07:00' }, kinds);
const refusal = (args: string) => {
  try {
    parse(args);
  } catch (e) {
    expect(e).toBeInstanceOf(ArgsError);
    return (e as Error).message;
  }
  throw new Error(`${args} was not refused`);
};

describe('the digest kinds', () => {
  it("derive the digest command's help, as it has always read", () => {
    expect(DIGEST_COMMAND_HELP).toEqual({
      usage:
        'digest subscribe [shortfall|receivables|tickets|budgets] [#channel] [daily|weekly|weekdays|mon,wed,fri] [HH:MM] [customer, ...] [low|medium|high] [NN%] [NNd] [all-clear] | list | unsubscribe <id> | pause <id> | resume <id> | preview [id | kind]',
      description:
        'Scheduled digests in a channel: shortfalls (daily at 07:00 by default), receivables (weekly: new overdue invoices and older aging), ticket status changes, budgets (purchase orders under NN% left or expiring within NN days).',
      examples: [
        'digest subscribe',
        'digest subscribe receivables #finance weekly',
        'digest preview tickets',
        'digest subscribe budgets 25% 45d',
      ],
    });
    expect(DIGEST_KINDS.names).toEqual(['shortfall', 'receivables', 'tickets', 'budgets']);
    expect(DIGEST_KINDS.default.name).toBe('shortfall');
  });

  it('take a kind written as one module into the help, the words, the options and the access rule', () => {
    const help = digestHelp(withPastDue);
    expect(help.usage).toContain(
      'digest subscribe [shortfall|receivables|tickets|budgets|past-due] [#channel] [daily|weekly|weekdays|mon,wed,fri] [HH:MM] [customer, ...] [low|medium|high] [NN%] [NNd] [min=N] [all-clear] |',
    );
    expect(help.description).toMatch(/, past-due invoice counts \(Fridays\)\.$/);
    expect(help.examples).toContain('digest subscribe late min=3');
    for (const word of ['past-due', 'PastDue', 'late']) expect(withPastDue.byWord(word)?.name).toBe('past-due');
    expect(DIGEST_KINDS.byWord('late')).toBeNull();

    expect(parse('late C0FINANCE1 min=3')).toMatchObject({
      kind: 'past-due',
      cadence: 'fri',
      channel: { id: 'C0FINANCE1' },
      options: { min: 3 },
      customers: [],
    });
    // The service's own kinds read their arguments as before.
    expect(parse('budgets 25% 45d weekly')).toMatchObject({
      kind: 'budgets',
      cadence: 'mon',
      options: { budgetShare: 0.25, expiringDays: 45 },
    });
    expect(parse('high Mercy General')).toMatchObject({
      kind: 'shortfall',
      minSeverity: 'high',
      customers: ['Mercy General'],
    });

    expect(isAccountingDigest('past-due', withPastDue)).toBe(true);
    expect(DIGEST_KINDS.all.filter((k) => isAccountingDigest(k.name)).map((k) => k.name)).toEqual([
      'receivables',
      'budgets',
    ]);
    // A kind the registry does not know is kept where accounting answers are allowed: never shown by mistake.
    expect(isAccountingDigest('past-due')).toBe(true);
  });

  it("refuse a kind's option words in another kind's digest, in the sentence of the kind that takes them", () => {
    expect(refusal('tickets min=3')).toBe(
      'A minimum (min=3) is for past-due digests; leave it out of a tickets digest.',
    );
    expect(refusal('late high')).toBe('A severity (high) is for shortfall digests; leave it out of a past-due digest.');
    expect(refusal('late 25%')).toBe(
      'A share left or a number of days is for budgets digests; leave it out of a past-due digest.',
    );
    expect(refusal('late min=0')).toBe('min=0 counts nothing; give min=1 or more.');
    // Without the kind in the registry its words are nobody's options: they name a customer.
    expect(parse('tickets min=3', DIGEST_KINDS).customers).toEqual(['min=3']);
  });

  it('refuse two kinds of one name, or a word naming two kinds', () => {
    expect(() => createDigestKinds([...DIGEST_KINDS.all, DIGEST_KINDS.all[1]!])).toThrow(
      'Two digest kinds are named receivables.',
    );
    const sameWord = { ...pastDueDigest, words: ['ar'] };
    expect(() => createDigestKinds([...DIGEST_KINDS.all, sameWord])).toThrow(
      '"ar" names two digest kinds: receivables and past-due.',
    );
    expect(() => createDigestKinds([])).toThrow('A digest registry needs at least one kind.');
  });
});
