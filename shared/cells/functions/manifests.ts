/** Manifests and what they carry: one manifest's bins, the listing, rewash and new linen. */

import { lastCompleteDays } from '../../dates.ts';
import { computeRewashRate, groupWithoutOwn, MANIFEST_STATUSES, MANIFEST_TYPES, REWASH_STATUSES } from '../../index.ts';
import { MANIFEST_NUMBER, manifestWindow, UNDELIVERED_STATUSES } from '../../reports/lookup.ts';
import type { ManifestDetail } from '../../schemas/processing.ts';
import { choice, isBlank } from '../args.ts';
import * as col from '../columns.ts';
import { grid } from '../columns.ts';
import { ArgError } from '../messages.ts';
import { dated, displayNumber, type Impl, listing, opt, optCustomer, perElement } from './common.ts';

export const MANIFEST_IMPLS: Record<string, Impl> = {
  *LINEN_REWASH_RATE(ctx, a) {
    const customer = yield* ctx.customer(a.customer);
    const given = ctx.window(a.from, a.to, false);
    if ((given.from === undefined) !== (given.to === undefined))
      throw new ArgError('Give both from and to, or neither for the last 30 whole days.');
    const w = given.from && given.to ? { from: given.from, to: given.to } : lastCompleteDays(30, ctx.zones.org);
    const fault = choice(a.fault, 'fault', ['all', 'soil', 'processing_error'] as const) ?? 'all';
    const r = computeRewashRate(
      yield* ctx.rows('rewash.list', { customerId: customer.id, ...w }, (x) => x.rewash.list),
      yield* ctx.rows(
        'manifests.list',
        { customerId: customer.id, ...w, type: 'normal' as const },
        (x) => x.manifests.list,
      ),
      w,
    );
    if (customer.is_group && r.manifests + r.batches + r.voided === 0)
      throw groupWithoutOwn(customer, yield* ctx.customers(), 'manifests or rewash', w);
    if (fault !== 'all' && r.splitHidden)
      throw new ArgError(
        'Your laundry hides the split between soil fault and processing error from customers, so the rewash cannot be split by fault.',
      );
    return (fault === 'soil' ? r.soilFaultRate : fault === 'processing_error' ? r.errorFaultRate : r.rate) ?? '';
  },

  *LINEN_MANIFEST(ctx, a) {
    const { number, year } = displayNumber(a.manifest_number, 'manifest_number', MANIFEST_NUMBER);
    const customerId = yield* opt(ctx, a.customer);
    // Numbers are unique only per plant: every match, found in the delivered days of the number's year, then
    // among manifests not delivered yet. Only the matches are cached, not the year's listing.
    const found = yield* ctx.cached('manifests.byNumber', { number, customerId }, function* (r) {
      const byNumber = (m: { manifest_number: string }) => m.manifest_number === number;
      let hits = (yield* r.all(r.api.manifests.list({ customerId, ...manifestWindow(year) }))).filter(byNumber);
      for (const status of UNDELIVERED_STATUSES)
        if (!hits.length) hits = (yield* r.all(r.api.manifests.list({ customerId, status }))).filter(byNumber);
      const details: ManifestDetail[] = [];
      for (const m of hits) details.push(yield* r.one(r.api.manifests.get(m.id)));
      return details;
    });
    if (!found.length) throw new ArgError(`No manifest ${number} is visible to this key.`);
    const rows = perElement(found, (m) => m.bins, 'b');
    return yield* grid(ctx, rows, [
      'manifest_number',
      col.customer('customer_id'),
      'department_name',
      col.label('status'),
      col.time('delivered_at'),
      col.value('signature.signed_by_name', 'Signed by'),
      col.value('signature.signed_by_title', 'Signer title'),
      col.time('signature.delivered_at', 'Signed at'),
      col.label('b.side'),
      col.label('b.content'),
      col.value('b.bin_ticket_number', 'Bin ticket'),
      col.value('b.gross_lb', 'Gross (lb)'),
      col.value('b.tare_lb', 'Tare (lb)'),
      col.value('b.net_lb', 'Net (lb)'),
      col.computed('Items', (r) =>
        (r.b.items ?? [])
          .map(
            (i) =>
              `${i.item_name} ${i.piece_count}${i.disposition === 'clean' ? '' : ` (${i.disposition.replace(/_/g, ' ')})`}`,
          )
          .join('; '),
      ),
      col.value('held_rewash.held_weight_lb', 'Held rewash (lb)'),
      col.label('held_rewash.status', 'Held status'),
      col.value('held_rewash.soil_rewash_lb', 'Soil rewash (lb)'),
      col.value('held_rewash.error_rewash_lb', 'Error rewash (lb)'),
      col.computed('Rewash of', (r) => r.rewash_links.parent_manifest?.manifest_number),
      col.computed('Rewash children', (r) => r.rewash_links.rewash_children.map((x) => x.manifest_number).join(', ')),
    ]);
  },

  *LINEN_MANIFESTS(ctx, a) {
    const customer = yield* optCustomer(ctx, a.customer);
    const params = {
      customerId: customer?.id,
      ...ctx.window(a.from, a.to, false),
      departmentId: isBlank(a.department) ? undefined : (yield* ctx.department(a.department, customer)).id,
      type: choice(a.type, 'type', MANIFEST_TYPES),
      status: choice(a.status, 'status', MANIFEST_STATUSES),
    };
    return yield* grid(ctx, yield* ctx.rows('manifests.list', params, (x) => x.manifests.list), [
      'manifest_number',
      col.label('type'),
      col.label('status'),
      col.customer('customer_id'),
      'department_name',
      col.time('created_at', 'Collected'),
      col.time('delivered_at'),
      col.value('soil_weight_lb', 'Soil (lb)'),
      col.value('clean_weight_lb', 'Clean (lb)'),
      col.value('clean_piece_count', 'Clean pieces'),
      'variance_pct',
      col.value('variance_within_tolerance', 'Within tolerance'),
      col.dollars('amount_cents', 'Amount ($)'),
    ]);
  },

  *LINEN_NEW_LINEN(ctx, a) {
    const injections = yield* ctx.rows('newLinen.list', yield* dated(ctx, a), (x) => x.newLinen.list);
    const lines = perElement(injections, (m) => m.items, 'i');
    return yield* grid(ctx, lines, [
      col.day('date'),
      'manifest_number',
      col.customer('customer_id'),
      col.department('department_id'),
      'i.item_name',
      col.value('i.piece_count', 'Pieces'),
      col.value('soil_weight_lb', 'Soil (lb)'),
      col.value('injected_weight_lb', 'Injected (lb)'),
    ]);
  },

  LINEN_REWASH: listing('rewash.list', (x) => x.rewash.list, { status: REWASH_STATUSES }).columns([
    col.time('discovered_at'),
    col.label('status'),
    col.customer('customer_id'),
    col.department('department_id'),
    col.value('parent_manifest.manifest_number', 'Parent manifest'),
    col.value('held_weight_lb', 'Held (lb)'),
    'soil_rewash_lb',
    'error_rewash_lb',
    col.value('consumed_by_manifest.manifest_number', 'Consumed by'),
    col.time('consumed_by_manifest.delivered_at', 'Consumed on'),
  ]),
};
