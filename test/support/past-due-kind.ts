/**
 * A throwaway digest kind, written as one module the way a new kind is: the count of past-due invoices, an
 * accounting digest posted on Fridays when at least `min=N` invoices are past due. Tests put it in a registry of
 * their own (`createDigestKinds([...DIGEST_KINDS.all, pastDueDigest])`); nothing else in the code names it.
 */
import { text, title } from '../../chat/content/document.ts';
import { ArgsError } from '../../chat/digests/args-error.ts';
import { defineDigestKind } from '../../chat/digests/kinds/index.ts';
import { ageInvoices } from '../../shared/index.ts';

const minOf = (options: { [option: string]: unknown }) => (typeof options.min === 'number' ? options.min : 1);

export const pastDueDigest = defineDigestKind({
  name: 'past-due',
  words: ['pastdue', 'late'],
  access: 'accounting',
  help: {
    description: 'past-due invoice counts (Fridays)',
    options: '[min=N]',
    examples: ['digest subscribe late min=3'],
  },
  defaultCadence: 'fri',
  options: {
    read(word) {
      const min = /^min=(\d+)$/i.exec(word);
      if (!min) return null;
      if (Number(min[1]) < 1) throw new ArgsError(`${word} counts nothing; give min=1 or more.`);
      return { options: { min: Number(min[1]) } };
    },
    notFor: (words, kind) =>
      `A minimum (${words.join(', ')}) is for past-due digests; leave it out of a ${kind} digest.`,
  },
  describe: (s) => ({ kind: 'past-due digest', settings: `, ${minOf(s.options)} or more past due` }),
  reads: ['openInvoices'],
  build: ({ subscription, today, title: day, read }) => {
    const late = ageInvoices(
      read.openInvoices.filter((i) => i.balance_cents > 0),
      today,
      subscription.timeZone,
    ).filter((i) => i.bucket !== 'current');
    const unchanged = late.length < minOf(subscription.options);
    return {
      summary: [`Past-due invoices ${day}: ${late.length}.`],
      parts: [title(`Past-due invoices · ${day}`), text([late.map((i) => i.invoice_number).join(', ')])],
      quiet: unchanged && !subscription.allClear,
      unchanged,
      shown: [],
    };
  },
});
