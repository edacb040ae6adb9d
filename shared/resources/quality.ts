import { P, type ParamsOf } from '../params.ts';
import { QualityTicketSchema, RatingSchema, TICKET_STATUSES } from '../schemas/quality.ts';
import { DATED, list, type ResourceContext } from './define.ts';

const ticketParams = { ...DATED, status: P.oneOf(TICKET_STATUSES) };
const ratingParams = { ...DATED };
export type QualityTicketListParams = ParamsOf<typeof ticketParams>;
export type RatingListParams = ParamsOf<typeof ratingParams>;

export function qualityTicketsResource(ctx: ResourceContext) {
  return {
    /** GET /quality-tickets; `from`/`to` filter on the created day. */
    list: (params?: QualityTicketListParams) =>
      list(ctx, { path: '/quality-tickets', item: QualityTicketSchema, params: ticketParams }, params),
  };
}

export function ratingsResource(ctx: ResourceContext) {
  return {
    /** GET /ratings; `from`/`to` filter on the rated day. */
    list: (params?: RatingListParams) =>
      list(ctx, { path: '/ratings', item: RatingSchema, params: ratingParams }, params),
  };
}
