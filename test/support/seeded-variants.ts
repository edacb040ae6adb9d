/**
 * Seeded data with what the seed itself never produces, for the answers that must handle it: a manifest number
 * shared by two plants (numbers are unique only per plant; the seed has one plant), and an organization that hides
 * the rewash fault split from its customers.
 */
import { loadSandboxData, type SandboxData } from '../../sandbox/index.ts';

export interface Variant {
  data: SandboxData;
  /** The number two manifests of different customers now carry, and their ids. */
  shared: { number: string; ids: [string, string] };
}

export async function variantData(o: { today: string; timeZone: string }): Promise<Variant> {
  const data = structuredClone(await loadSandboxData({ ...o, seed: 'linen' }));
  const delivered = data.manifests.filter((m) => m.delivered_at !== null && m.type === 'normal');
  const first = delivered[10]!;
  const second = delivered.find((m) => m.customer_id !== first.customer_id)!;
  // Another plant's manifest: its own sequence reached the same number.
  second.manifest_number = first.manifest_number;
  data.organization.hides_rewash_fault_split = true;
  for (const b of data.rewash_batches) {
    b.soil_rewash_lb = null;
    b.error_rewash_lb = null;
  }
  for (const m of data.manifests) {
    if (m.held_rewash) {
      m.held_rewash.soil_rewash_lb = null;
      m.held_rewash.error_rewash_lb = null;
    }
  }
  return { data, shared: { number: first.manifest_number, ids: [first.id, second.id] } };
}
