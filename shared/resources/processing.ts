import { P, type ParamsOf } from '../params.ts';
import {
  DailyDeliveryRowSchema,
  MANIFEST_STATUSES,
  MANIFEST_TYPES,
  ManifestDetailSchema,
  ManifestSchema,
  NewLinenInjectionSchema,
  REWASH_STATUSES,
  RewashBatchSchema,
} from '../schemas/processing.ts';
import { DATED, get, list, type ResourceContext } from './define.ts';

const SCOPE = 'processing';

const manifestParams = {
  ...DATED,
  departmentId: P.id,
  type: P.oneOf(MANIFEST_TYPES),
  status: P.oneOf(MANIFEST_STATUSES),
};
const dailyParams = { ...DATED, departmentId: P.id, itemId: P.id };
const newLinenParams = { ...DATED };
const rewashParams = { ...DATED, status: P.oneOf(REWASH_STATUSES) };

export type ManifestListParams = ParamsOf<typeof manifestParams>;
export type DailyDeliveryParams = ParamsOf<typeof dailyParams>;
export type NewLinenListParams = ParamsOf<typeof newLinenParams>;
export type RewashListParams = ParamsOf<typeof rewashParams>;

export function manifestsResource(ctx: ResourceContext) {
  return {
    /** GET /manifests. `from`/`to` filter on the delivered day (undelivered manifests drop out). */
    list: (params?: ManifestListParams) =>
      list(ctx, { path: '/manifests', scope: SCOPE, item: ManifestSchema, params: manifestParams }, params),
    /** GET /manifests/{id}: the manifest with bins, held rewash, rewash links and signature. */
    get: (id: string) =>
      get(ctx, { path: '/manifests', idName: 'manifest id', scope: SCOPE, item: ManifestDetailSchema }, id),
  };
}

export function deliveriesResource(ctx: ResourceContext) {
  return {
    /**
     * GET /deliveries/daily: one row per day, customer, department and item. Defaults to the last 7 days;
     * a window over 92 days is fetched in 92-day chunks and merged, newest first.
     */
    daily: (params?: DailyDeliveryParams) =>
      list(
        ctx,
        {
          path: '/deliveries/daily',
          scope: SCOPE,
          item: DailyDeliveryRowSchema,
          params: dailyParams,
          splitWindow: true,
        },
        params,
      ),
  };
}

export function newLinenResource(ctx: ResourceContext) {
  return {
    /** GET /new-linen: new-linen injections; `from`/`to` filter on the cleaned day. */
    list: (params?: NewLinenListParams) =>
      list(ctx, { path: '/new-linen', scope: SCOPE, item: NewLinenInjectionSchema, params: newLinenParams }, params),
  };
}

export function rewashResource(ctx: ResourceContext) {
  return {
    /** GET /rewash: rewash batches; `from`/`to` filter on the discovered day. */
    list: (params?: RewashListParams) =>
      list(ctx, { path: '/rewash', scope: SCOPE, item: RewashBatchSchema, params: rewashParams }, params),
  };
}
