/** `/linen rewash <customer> [days | from to]`: rewash pounds against soil pounds, split by fault. */
import { daysInclusive } from '../../shared/dates.ts';
import type { RewashRate } from '../../shared/reports/index.ts';
import { type Block, context, fields, header, type Message, section } from '../../slack-bot/blocks/kit.ts';
import { count, escLine, pct, plain, plural } from '../../slack-bot/blocks/mrkdwn.ts';

const lb = (x: number) => `${x.toLocaleString('en-US', { minimumFractionDigits: 1, maximumFractionDigits: 1 })} lb`;

export function rewashMessage(r: RewashRate, opts: { customerName: string }): Message {
  const who = plain(opts.customerName);
  const win = `${r.window.from} → ${r.window.to} (${plural(daysInclusive(r.window.from, r.window.to), 'day')})`;
  const blocks: Block[] = [header(`Rewash: ${who}`)];
  if (r.soilLb <= 0 && r.batches === 0) {
    blocks.push(section(`No soil linen delivered and no rewash in ${win}.`));
    return { text: `Rewash for ${escLine(who)}: nothing processed in ${win}.`, blocks };
  }
  const fault = (label: string, pounds: number | null, rate: number | null) =>
    `*${label}*\n${pounds === null ? 'hidden' : `${pct(rate, 2)} (${lb(pounds)})`}`;
  blocks.push(
    fields([
      `*Rewash rate*\n${pct(r.rate, 2)} (${lb(r.rewashLb)} of ${lb(r.soilLb)} soil)`,
      `*Window*\n${win}`,
      fault('Soil fault (customer)', r.soilFaultLb, r.soilFaultRate),
      fault('Processing error (laundry: basis of a credit)', r.errorFaultLb, r.errorFaultRate),
      `*Rewash batches*\n${count(r.batches)}${r.voided ? ` (and ${count(r.voided)} voided, left out)` : ''}`,
      `*Soil manifests*\n${count(r.manifests)}`,
    ]),
  );
  if (r.splitHidden)
    blocks.push(
      section(
        ':information_source: Your laundry hides the split between soil fault and processing error from customers, so this rewash cannot be split by fault. Ask them for the split to support a credit claim.',
      ),
    );
  else if (r.batchesWithoutSplit)
    blocks.push(
      context(
        `${plural(r.batchesWithoutSplit, 'batch', 'batches')} without the fault split; the split covers the others.`,
      ),
    );
  blocks.push(
    context(
      'Rewash = held pounds of the rewash batches discovered in the window; soil = soil pounds of the normal manifests delivered in it.',
    ),
  );
  const split = r.splitHidden
    ? 'fault split hidden'
    : `processing error ${pct(r.errorFaultRate, 2)}, soil ${pct(r.soilFaultRate, 2)}`;
  return { text: `Rewash for ${escLine(who)}: ${pct(r.rate, 2)} of soil pounds (${split}), ${win}.`, blocks };
}
