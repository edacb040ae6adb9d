/**
 * Rate-limit ceiling figures from bench/ceiling.ts: a bulk pull of every manifest, 20 a page, under a scaled limit
 * (30 per 3 s, the real 120 a minute 20 times faster), by one client and by three client processes sharing the
 * key's pacing through PostgreSQL (BENCH_DATABASE_URL or TEST_DATABASE_URL; not measured without one). The figure
 * is the achieved pace as a fraction of the ceiling the sandbox's sliding window allows.
 */
import { measureCeiling, measureSharedCeiling } from './ceiling.ts';
import { type Results, round } from './results.ts';

export async function benchCeiling(results: Results, options: { quick?: boolean } = {}): Promise<void> {
  const pageSize = options.quick ? 40 : 20;
  const one = await measureCeiling({ pageSize });
  const fraction = round(one.fraction, 3);
  results.add({
    id: 'client.ceiling_fraction',
    label: `Client: bulk pull of ${one.rows} manifests, ${pageSize} a page, under 30 per 3 s: pace as a fraction of the ceiling (${one.requests} requests in ${one.seconds.toFixed(1)} s)`,
    value: fraction,
    unit: null,
    target: '>= 0.95',
    met: fraction >= 0.95,
  });
  results.add({
    id: 'client.ceiling_429s',
    label: 'Client: requests answered 429 during that pull',
    value: one.rateLimited,
    unit: 'requests',
    target: '0',
    met: one.rateLimited === 0,
  });
  const databaseUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
  if (!databaseUrl || options.quick) {
    results.add({
      id: 'client.shared_ceiling_fraction',
      label: `Client: three processes sharing one key, pace as a fraction of the ceiling (not measured: ${options.quick ? 'quick run' : 'no PostgreSQL URL'})`,
      value: null,
    });
    return;
  }
  const shared = await measureSharedCeiling({ databaseUrl, pageSize, clients: 3 });
  const sharedFraction = round(shared.fraction, 3);
  results.add({
    id: 'client.shared_ceiling_fraction',
    label: `Client: three processes sharing one key through PostgreSQL, each pulling every manifest: pace as a fraction of the ceiling (${shared.requests} requests in ${shared.seconds.toFixed(1)} s)`,
    value: sharedFraction,
    unit: null,
    target: '>= 0.95',
    met: sharedFraction >= 0.95,
  });
  results.add({
    id: 'client.shared_ceiling_429s',
    label: 'Client: requests answered 429 during the shared pull',
    value: shared.rateLimited,
    unit: 'requests',
    target: '0',
    met: shared.rateLimited === 0,
  });
}
