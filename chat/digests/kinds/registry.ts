/**
 * A registry of digest kinds: the value every part of the digests asks about a kind (by its stored name or by a
 * word typed in a command). The service's is `DIGEST_KINDS` (`index.ts`); a test builds one of its own from a list
 * with a throwaway kind and passes it where the real one is the default (the digest answers, the runner, the store).
 */

import { UnbuildableRunError } from '../delivery/run-executor.ts';
import type { DigestKind } from './index.ts';
import type { RegisteredDigestKind } from './kind.ts';

/** A kind of the registry in use: the service's own names (a test's throwaway kind passes under them too). */
export type KnownDigestKind = RegisteredDigestKind & { name: DigestKind };

export interface DigestKinds {
  /** In the order the help lists them. */
  readonly all: readonly KnownDigestKind[];
  readonly names: readonly DigestKind[];
  /** The kind of a subscription or preview that names none: the first listed. */
  readonly default: KnownDigestKind;
  /** The kind stored under `name`, if this registry knows it. */
  get(name: string): KnownDigestKind | undefined;
  /** The kind a typed word names (its name or one of its words, any case), or null. */
  byWord(word: string): KnownDigestKind | null;
}

/** A registry of `kinds`; throws when two share a name or a word (a command word must name one kind). */
export function createDigestKinds(kinds: readonly RegisteredDigestKind[]): DigestKinds {
  // Typed as the service's kinds: outside tests the list is the service's, whose names DigestKind is made of.
  const all = kinds as readonly KnownDigestKind[];
  const first = all[0];
  if (!first) throw new Error('A digest registry needs at least one kind.');
  const byName = new Map<string, KnownDigestKind>();
  const byWord = new Map<string, KnownDigestKind>();
  for (const kind of all) {
    if (byName.has(kind.name)) throw new Error(`Two digest kinds are named ${kind.name}.`);
    byName.set(kind.name, kind);
    for (const w of [kind.name, ...kind.words]) {
      const word = w.toLowerCase();
      const other = byWord.get(word);
      if (other && other !== kind) throw new Error(`"${word}" names two digest kinds: ${other.name} and ${kind.name}.`);
      byWord.set(word, kind);
    }
  }
  return {
    all,
    names: all.map((k) => k.name),
    default: first,
    get: (name) => byName.get(name),
    byWord: (word) => byWord.get(word.trim().toLowerCase()) ?? null,
  };
}

/**
 * A stored subscription of a kind this registry does not know (written by a newer version of the service, or a
 * kind since removed): its run ends failed with this sentence and nothing is posted, rather than another kind's
 * digest built in its place.
 */
export class UnknownDigestKindError extends UnbuildableRunError {
  override name = 'UnknownDigestKindError';
  constructor(kind: string, known: readonly string[]) {
    super(`"${kind}" is not a digest kind this service knows (${known.join(', ')}), so nothing was built or posted.`);
  }
}
