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
import { DATED, get, listsIn, type ResourceContext } from './define.ts';

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
    list: listsIn(ctx, SCOPE)('/manifests', ManifestSchema, manifestParams),
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
    daily: listsIn(ctx, SCOPE)('/deliveries/daily', DailyDeliveryRowSchema, dailyParams, { splitWindow: true }),
  };
}

export function newLinenResource(ctx: ResourceContext) {
  return {
    /** GET /new-linen: new-linen injections; `from`/`to` filter on the cleaned day. */
    list: listsIn(ctx, SCOPE)('/new-linen', NewLinenInjectionSchema, newLinenParams),
  };
}

export function rewashResource(ctx: ResourceContext) {
  return {
    /** GET /rewash: rewash batches; `from`/`to` filter on the discovered day. */
    list: listsIn(ctx, SCOPE)('/rewash', RewashBatchSchema, rewashParams),
  };
}
