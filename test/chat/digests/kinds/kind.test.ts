/**
 * Type-level completeness of a digest kind: a module without its access class or its builder does not compile
 * (`npm run typecheck` covers the tests, so an `@ts-expect-error` that no longer meets an error fails it).
 */
import { describe, expect, it } from 'vitest';
import { defineDigestKind } from '../../../../chat/digests/kinds/index.ts';

const complete = {
  name: 'complete',
  words: ['complete'],
  access: 'operations',
  help: { description: 'a complete kind' },
  defaultCadence: 'daily',
  describe: () => ({ kind: 'complete digest', settings: '' }),
  reads: ['signals'],
  build: ({ read }) => ({
    summary: [`${read.signals.length} signals`],
    parts: [],
    quiet: false,
    unchanged: false,
    shown: [],
  }),
} as const satisfies Parameters<typeof defineDigestKind>[0];

const empty = { summary: [], parts: [], quiet: true, unchanged: true, shown: [] };

describe('a digest kind module', () => {
  it('compiles with every field, and not without its access class or its builder', () => {
    const { access: _access, ...withoutAccess } = complete;
    const { build: _build, ...withoutBuild } = complete;
    // @ts-expect-error: a kind must say who may see it
    const noAccess = defineDigestKind(withoutAccess);
    // @ts-expect-error: a kind must build its digest
    const noBuild = defineDigestKind(withoutBuild);
    // @ts-expect-error: an admins-only digest cannot be declared (a digest is posted for everyone in its channel)
    const forAdmins = defineDigestKind({ ...complete, access: 'admins' });
    const undeclared = defineDigestKind({
      ...complete,
      // @ts-expect-error: a builder reads only the listings its kind declares
      build: ({ read }) => ({ ...empty, summary: [`${read.openInvoices.length}`] }),
    });
    expect([noAccess, noBuild, forAdmins, undeclared].map((k) => k.name)).toEqual(Array(4).fill('complete'));
    expect(defineDigestKind(complete).access).toBe('operations');
  });
});
