/**
 * `/linen manifest MAN-26-027570 [customer]`: proof of delivery. Each manifest the number matches (numbers are
 * unique only per plant) with who signed and when, the weights, every bin, held rewash and rewash links.
 */
import type { ManifestDetail } from '../../shared/schemas/processing.ts';
import { type Block, context, divider, fields, header, type Message, section } from '../../slack-bot/blocks/kit.ts';
import { chunkLines, LIMITS, moreLine, take } from '../../slack-bot/blocks/limits.ts';
import { bold, count, escLine, humanize, pct, plain, plural, when } from '../../slack-bot/blocks/mrkdwn.ts';

export const MAX_MANIFESTS = 5;
export const MAX_BINS = 30;

const lb = (x: number | null) =>
  x === null ? '—' : `${x.toLocaleString('en-US', { minimumFractionDigits: 1, maximumFractionDigits: 1 })} lb`;

export interface ManifestViewOptions {
  timeZone: string;
  customerNames: ReadonlyMap<string, string>;
}

function binLine(b: ManifestDetail['bins'][number]): string {
  const items = b.items
    .map(
      (i) =>
        `${escLine(i.item_name)} ${count(i.piece_count)}${i.disposition === 'clean' ? '' : ` (${humanize(i.disposition).toLowerCase()})`}`,
    )
    .join(', ');
  return `• ${humanize(b.side)} · ${humanize(escLine(b.content)).toLowerCase()} · bin ${escLine(b.bin_ticket_number)}: *${lb(b.net_lb)} net* (gross ${lb(b.gross_lb)}, tare ${lb(b.tare_lb)})${items ? `: ${items}` : ''}`;
}

function manifestBlocks(m: ManifestDetail, opts: ManifestViewOptions): Block[] {
  const customer = opts.customerNames.get(m.customer_id) ?? m.customer_id;
  const title = `${bold(escLine(m.manifest_number))} · ${escLine(customer)}${m.department_name ? ` › ${escLine(m.department_name)}` : ''} · ${humanize(m.type).toLowerCase()} · ${humanize(m.status).toLowerCase()}`;
  const sig = m.signature;
  const signer = sig.signed_by_name
    ? `${escLine(sig.signed_by_name)}${sig.signed_by_title ? `, ${escLine(sig.signed_by_title)}` : ''}`
    : 'not signed';
  const variance =
    m.variance_pct === null
      ? ''
      : ` · variance ${pct(m.variance_pct, 1)}${m.variance_within_tolerance === false ? ' *(outside tolerance)*' : ''}`;
  const held = m.held_rewash;
  const heldText = held
    ? `${lb(held.held_weight_lb)} ${humanize(held.status).toLowerCase()}${held.soil_rewash_lb === null && held.error_rewash_lb === null ? ' (fault split hidden)' : ` (soil ${lb(held.soil_rewash_lb)}, processing error ${lb(held.error_rewash_lb)})`}`
    : 'none';
  const blocks: Block[] = [
    fields(
      [
        `*Signed by*\n${signer}`,
        `*Signed at*\n${when(sig.delivered_at, opts.timeZone)}`,
        `*Delivered*\n${when(m.delivered_at, opts.timeZone)}`,
        `*Weights*\nsoil ${lb(m.soil_weight_lb)}, clean ${lb(m.clean_weight_lb)}${variance}`,
        `*Clean pieces*\n${m.clean_piece_count === null ? '—' : count(m.clean_piece_count)}`,
        `*Held rewash*\n${heldText}`,
      ],
      title,
    ),
  ];
  const { shown, more } = take(m.bins, MAX_BINS);
  const lines = [`*Bins* (${m.bins.length})`, ...shown.map(binLine)];
  if (more) lines.push(moreLine(more, 'bins'));
  if (m.bins.length === 0) lines.push('_No bins recorded._');
  const links = m.rewash_links;
  if (links.parent_manifest) lines.push(`Rewash of ${bold(escLine(links.parent_manifest.manifest_number))}`);
  if (links.rewash_children.length)
    lines.push(`Rewashed in ${links.rewash_children.map((c) => bold(escLine(c.manifest_number))).join(', ')}`);
  for (const chunk of chunkLines(lines)) blocks.push(section(chunk));
  return blocks;
}

export function manifestMessage(found: readonly ManifestDetail[], opts: ManifestViewOptions): Message {
  const first = found[0]!;
  const blocks: Block[] = [header(`Proof of delivery: ${plain(first.manifest_number)}`)];
  if (found.length > 1)
    blocks.push(
      section(
        `:information_source: Manifest numbers are unique only per plant: ${escLine(first.manifest_number)} matches ${plural(found.length, 'manifest')}.`,
      ),
    );
  // Room for the manifests: 50 blocks less the "more" line, the times line and the share button.
  const room = LIMITS.blocks - 3;
  let shown = 0;
  for (const m of found.slice(0, MAX_MANIFESTS)) {
    const mine = [...(shown ? [divider()] : []), ...manifestBlocks(m, opts)];
    if (shown && blocks.length + mine.length > room) break;
    blocks.push(...mine.slice(0, room - blocks.length));
    shown++;
  }
  const more = found.length - shown;
  if (more) blocks.push(context(moreLine(more, 'manifests', '(give the customer to narrow them)')));
  blocks.push(context(`Times in ${escLine(opts.timeZone)}.`));
  const sig = first.signature;
  const text =
    found.length > 1
      ? `${escLine(first.manifest_number)} matches ${found.length} manifests (numbers are unique only per plant).`
      : `${escLine(first.manifest_number)}: ${humanize(first.status).toLowerCase()}${sig.signed_by_name ? `, signed by ${escLine(sig.signed_by_name)} at ${when(sig.delivered_at, opts.timeZone)}` : ''}, ${plural(first.bins.length, 'bin')}.`;
  return { text, blocks };
}
