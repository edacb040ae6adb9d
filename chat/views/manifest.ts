/**
 * `/linen manifest MAN-26-027570 [customer]`: proof of delivery. Each manifest the number matches (numbers are
 * unique only per plant) with who signed and when, the weights, every bin, held rewash and rewash links.
 */
import type { ManifestDetail } from '../../shared/schemas/processing.ts';
import { type Content, divider, field, fields, note, type Part, text, title } from '../content/document.ts';
import { count, humanize, moreLine, pct, plural, take, when } from '../content/format.ts';
import { CONTENT_LIMITS, chunkLines } from '../content/limits.ts';
import { b, i, icon, joinRich, line, type Rich, r } from '../content/rich.ts';

export const MAX_MANIFESTS = 5;
export const MAX_BINS = 30;

const lb = (x: number | null) =>
  x === null ? '—' : `${x.toLocaleString('en-US', { minimumFractionDigits: 1, maximumFractionDigits: 1 })} lb`;

export interface ManifestViewOptions {
  timeZone: string;
  customerNames: ReadonlyMap<string, string>;
}

function binLine(bin: ManifestDetail['bins'][number]): Rich {
  const items = bin.items
    .map(
      (it) =>
        `${line(it.item_name)} ${count(it.piece_count)}${it.disposition === 'clean' ? '' : ` (${humanize(it.disposition).toLowerCase()})`}`,
    )
    .join(', ');
  return r`• ${humanize(bin.side)} · ${humanize(line(bin.content)).toLowerCase()} · bin ${line(bin.bin_ticket_number)}: ${b(`${lb(bin.net_lb)} net`)} (gross ${lb(bin.gross_lb)}, tare ${lb(bin.tare_lb)})${items ? `: ${items}` : ''}`;
}

function manifestParts(m: ManifestDetail, opts: ManifestViewOptions): Part[] {
  const customer = opts.customerNames.get(m.customer_id) ?? m.customer_id;
  const heading = r`${b(line(m.manifest_number))} · ${line(customer)}${m.department_name ? ` › ${line(m.department_name)}` : ''} · ${humanize(m.type).toLowerCase()} · ${humanize(m.status).toLowerCase()}`;
  const sig = m.signature;
  const signer = sig.signed_by_name
    ? `${line(sig.signed_by_name)}${sig.signed_by_title ? `, ${line(sig.signed_by_title)}` : ''}`
    : 'not signed';
  const variance: Rich =
    m.variance_pct === null
      ? []
      : r` · variance ${pct(m.variance_pct, 1)}${m.variance_within_tolerance === false ? [' ', b('(outside tolerance)')] : ''}`;
  const held = m.held_rewash;
  const heldText = held
    ? `${lb(held.held_weight_lb)} ${humanize(held.status).toLowerCase()}${held.soil_rewash_lb === null && held.error_rewash_lb === null ? ' (fault split hidden)' : ` (soil ${lb(held.soil_rewash_lb)}, processing error ${lb(held.error_rewash_lb)})`}`
    : 'none';
  const parts: Part[] = [
    fields(
      [
        field('Signed by', [signer]),
        field('Signed at', [when(sig.delivered_at, opts.timeZone)]),
        field('Delivered', [when(m.delivered_at, opts.timeZone)]),
        field('Weights', r`soil ${lb(m.soil_weight_lb)}, clean ${lb(m.clean_weight_lb)}${variance}`),
        field('Clean pieces', [m.clean_piece_count === null ? '—' : count(m.clean_piece_count)]),
        field('Held rewash', [heldText]),
      ],
      heading,
    ),
  ];
  const { shown, more } = take(m.bins, MAX_BINS);
  const list: Rich[] = [r`${b('Bins')} (${String(m.bins.length)})`, ...shown.map(binLine)];
  if (more) list.push([moreLine(more, 'bins')]);
  if (m.bins.length === 0) list.push([i('No bins recorded.')]);
  const links = m.rewash_links;
  if (links.parent_manifest) list.push(r`Rewash of ${b(line(links.parent_manifest.manifest_number))}`);
  if (links.rewash_children.length)
    list.push(
      r`Rewashed in ${joinRich(
        links.rewash_children.map((c) => b(line(c.manifest_number))),
        ', ',
      )}`,
    );
  for (const chunk of chunkLines(list)) parts.push(text(chunk));
  return parts;
}

export function manifestView(found: readonly ManifestDetail[], opts: ManifestViewOptions): Content {
  const first = found[0]!;
  const parts: Part[] = [title(`Proof of delivery: ${line(first.manifest_number)}`)];
  if (found.length > 1)
    parts.push(
      text([
        icon('info'),
        ` Manifest numbers are unique only per plant: ${line(first.manifest_number)} matches ${plural(found.length, 'manifest')}.`,
      ]),
    );
  // Room for the manifests: the limit less the "more" line, the times line and the share button.
  const room = CONTENT_LIMITS.parts - 3;
  let shown = 0;
  for (const m of found.slice(0, MAX_MANIFESTS)) {
    const mine = [...(shown ? [divider()] : []), ...manifestParts(m, opts)];
    if (shown && parts.length + mine.length > room) break;
    parts.push(...mine.slice(0, room - parts.length));
    shown++;
  }
  const more = found.length - shown;
  if (more) parts.push(note([moreLine(more, 'manifests', '(give the customer to narrow them)')]));
  parts.push(note([`Times in ${line(opts.timeZone)}.`]));
  const sig = first.signature;
  const summary =
    found.length > 1
      ? `${line(first.manifest_number)} matches ${found.length} manifests (numbers are unique only per plant).`
      : `${line(first.manifest_number)}: ${humanize(first.status).toLowerCase()}${sig.signed_by_name ? `, signed by ${line(sig.signed_by_name)} at ${when(sig.delivered_at, opts.timeZone)}` : ''}, ${plural(first.bins.length, 'bin')}.`;
  return { summary: [summary], parts };
}
