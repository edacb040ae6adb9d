/**
 * What a person follows on their home: customers, and within them departments or units, kept per platform,
 * organization (a Slack workspace or a Teams tenant) and person in the service's database (`home_follows`), so that
 * a choice made in Slack or on a Teams card is there after a restart and on every replica. Following nothing is
 * following every customer the key sees.
 */
import type { SqlExecutor } from '../../base/store/sql.ts';
import { json, type Row } from '../digests/storage/rows.ts';
import type { Platform } from '../digests/storage/types.ts';

/** A department or unit of a followed customer: the home shows only these of that customer. */
export interface FollowedPlace {
  kind: 'department' | 'unit';
  id: string;
  customerId: string;
}

export interface Follows {
  /** Empty: every customer the key sees. */
  customerIds: string[];
  places: FollowedPlace[];
}

/** Whose follows: the person on a platform, in an organization (null: a bot of one workspace that names none). */
export interface Follower {
  platform: Platform;
  orgId: string | null | undefined;
  userId: string;
}

export const EVERY_CUSTOMER: Follows = { customerIds: [], places: [] };

const isPlace = (p: unknown): p is FollowedPlace => {
  const o = p as Partial<FollowedPlace> | null;
  return (
    typeof o === 'object' &&
    o !== null &&
    (o.kind === 'department' || o.kind === 'unit') &&
    typeof o.id === 'string' &&
    typeof o.customerId === 'string'
  );
};

function toFollows(r: Row): Follows {
  const ids = json<unknown>(r.customer_ids);
  const places = json<unknown>(r.places);
  return {
    customerIds: Array.isArray(ids) ? ids.filter((id): id is string => typeof id === 'string') : [],
    places: Array.isArray(places) ? places.filter(isPlace) : [],
  };
}

export class FollowStore {
  constructor(private readonly db: SqlExecutor) {}

  async get(who: Follower): Promise<Follows> {
    const [row] = await this.db.query(
      'SELECT customer_ids, places FROM home_follows WHERE platform = $1 AND org_id = $2 AND user_id = $3',
      [who.platform, who.orgId ?? '', who.userId],
    );
    return row ? toFollows(row) : EVERY_CUSTOMER;
  }

  /** Replaces what the person follows; places of customers no longer followed are dropped. */
  async set(who: Follower, follows: Follows, now: Date): Promise<Follows> {
    const customerIds = [...new Set(follows.customerIds)];
    const places = follows.places.filter((p) => customerIds.includes(p.customerId));
    await this.db.query(
      `INSERT INTO home_follows (platform, org_id, user_id, customer_ids, places, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6)
       ON CONFLICT (platform, org_id, user_id)
       DO UPDATE SET customer_ids = EXCLUDED.customer_ids, places = EXCLUDED.places, updated_at = EXCLUDED.updated_at`,
      [who.platform, who.orgId ?? '', who.userId, JSON.stringify(customerIds), JSON.stringify(places), now],
    );
    return { customerIds, places };
  }
}
