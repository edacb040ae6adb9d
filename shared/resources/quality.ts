import { P, type ParamsOf } from '../params.ts';
import { QualityTicketSchema, RatingSchema, TICKET_STATUSES } from '../schemas/quality.ts';
import { DATED, listsIn, type ResourceContext } from './define.ts';

const ticketParams = { ...DATED, status: P.oneOf(TICKET_STATUSES) };
const ratingParams = { ...DATED };
export type QualityTicketListParams = ParamsOf<typeof ticketParams>;
export type RatingListParams = ParamsOf<typeof ratingParams>;

export function qualityTicketsResource(ctx: ResourceContext) {
  return {
    /** GET /quality-tickets; `from`/`to` filter on the created day. */
    list: listsIn(ctx)('/quality-tickets', QualityTicketSchema, ticketParams),
  };
}

export function ratingsResource(ctx: ResourceContext) {
  return {
    /** GET /ratings; `from`/`to` filter on the rated day. */
    list: listsIn(ctx)('/ratings', RatingSchema, ratingParams),
  };
}
