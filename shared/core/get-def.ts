/** A single resource by id as an operation description. */
import type * as z from 'zod/mini';
import { singleEnvelope } from '../schemas/common.ts';
import type { CallDef } from './defs.ts';
import { parseJson } from './parse-json.ts';
import { answer, type CoreConfig } from './send.ts';

export interface GetSpec<S extends z.ZodMiniType> {
  path: string;
  /** The path with its id as `{id}`, for observers. */
  template: string;
  scope?: string | undefined;
  item: S;
}

export function getDef<S extends z.ZodMiniType>(cfg: CoreConfig, spec: GetSpec<S>): CallDef<z.infer<S>> {
  const envelope = singleEnvelope(spec.item);
  const endpoint = `GET ${spec.path}`;
  return {
    kind: 'call',
    endpoint,
    *op(budget) {
      const env = yield* answer(
        cfg,
        {
          endpoint,
          template: `GET ${spec.template}`,
          url: cfg.baseUrl + spec.path,
          responseType: 'text',
          scope: spec.scope,
          parse: (res) => parseJson(envelope, endpoint, res),
        },
        budget,
      );
      return (env as { data: unknown }).data as z.infer<S>;
    },
  };
}
