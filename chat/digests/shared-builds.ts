/**
 * One build for the runs that ask the same question: a digest is built purely from its input (`kinds/kind.ts`),
 * and that input is the key's listings (shared per key already: `KeySnapshot`), the run's instant and the
 * subscription's own settings, and what its previous digest showed. Runs of one backlog whose subscriptions read
 * the same key with the same settings, at the same instant, after the same previous digest (the channels of an
 * organization subscribed alike, on their first digest or after the same one) get the same digest object, built
 * once. It is never changed after it is built: the runner and the renderers only read it.
 *
 * The build's identity is everything of the subscription except what says where the digest goes and who made it
 * (its id, platform, organization, channel, creator, status, schedule bookkeeping): a field added to subscriptions
 * later is part of the identity unless it is listed here, so sharing can only be missed, never wrong.
 */
import type { Digest } from './digest.ts';
import type { DigestRun, ShownRecord, Subscription } from './storage/types.ts';

/** Fields that name where a digest goes, who made it and when it runs next: they do not change what it says. */
const NOT_READ_BY_BUILDERS = new Set<keyof Subscription>([
  'id',
  'platform',
  'orgId',
  'channelId',
  'channelName',
  'serviceUrl',
  'createdBy',
  'createdAt',
  'status',
  'failureReason',
  'nextRunAt',
]);

/** What a run's digest is built from, besides the key's listings: identical for runs that share one build. */
export function buildIdentity(
  sub: Subscription,
  at: Date,
  previous: { run?: DigestRun; shown: readonly ShownRecord[] } | null,
): string {
  const settings = Object.entries(sub)
    .filter(([field]) => !NOT_READ_BY_BUILDERS.has(field as keyof Subscription))
    .sort(([a], [b]) => (a < b ? -1 : 1));
  return JSON.stringify([
    at.getTime(),
    settings,
    previous ? [previous.run?.scheduledFor.getTime() ?? null, previous.shown] : null,
  ]);
}

/** The builds of one backlog, by identity; a failed build is not kept (each run then fails on its own). */
export class SharedBuilds {
  readonly #builds = new Map<string, Promise<Digest>>();

  /** The digest of `identity`, built by `build` unless a run before it built it. */
  get(identity: string, build: () => Promise<Digest>): Promise<Digest> {
    let digest = this.#builds.get(identity);
    if (!digest) {
      digest = build();
      this.#builds.set(identity, digest);
      digest.catch(() => this.#builds.delete(identity));
    }
    return digest;
  }
}
