/** `/linen short [customer] [department | unit]`: what is missing right now, by unit and item, worst first. */
import type { ShortToday } from '../../shared/reports/index.ts';
import { type Block, context, header, type Message, section } from '../../slack-bot/blocks/kit.ts';
import { chunkLines, moreLine, take } from '../../slack-bot/blocks/limits.ts';
import { bold, count, escLine, humanize, plain, plural } from '../../slack-bot/blocks/mrkdwn.ts';

export const MAX_SHORT_LINES = 40;

export interface ShortViewOptions {
  /** Customer names by id (lines name their customer when several are shown). */
  customerNames: ReadonlyMap<string, string>;
  /** The customer asked for, when one was. */
  customerName?: string | undefined;
}

export function shortMessage(r: ShortToday, opts: ShortViewOptions): Message {
  const scope = [opts.customerName, r.place]
    .filter(Boolean)
    .map((s) => plain(s))
    .join(' › ');
  const blocks: Block[] = [header(scope ? `Short today: ${scope}` : 'Short today')];
  const days = `count days ${r.window.from} → ${r.window.to}`;
  const pending = r.pendingCarts ? `; ${plural(r.pendingCarts, 'cart')} not counted yet` : '';
  if (r.lines.length === 0) {
    const text = r.carts
      ? `Nothing missing: the latest counts of ${plural(r.carts, 'cart')} are all delivered (${days}${pending}).`
      : `No cart counts to read (${days}${pending}).`;
    blocks.push(section(`:white_check_mark: ${text}`));
    return { text, blocks };
  }
  blocks.push(
    context(
      `*${count(r.missing)}* pieces missing in ${plural(r.lines.length, 'unit item', 'unit items')}, from the latest count of ${plural(r.carts, 'cart')} (${days}${pending}). Missing = required at the count − delivered since; worst first.`,
    ),
  );
  const several = !opts.customerName;
  const { shown, more } = take(r.lines, MAX_SHORT_LINES);
  const lines = shown.map((l) => {
    const where = [several ? opts.customerNames.get(l.customerId) : null, l.unitName ?? 'No unit']
      .filter(Boolean)
      .map((s) => escLine(s))
      .join(' › ');
    const statuses = l.statuses.map((s) => humanize(s).toLowerCase()).join(', ');
    return `${bold(count(l.missing))} ${escLine(l.itemName)} at ${where}: ${count(l.delivered)} of ${count(l.required)} required delivered · counted ${l.countedOn} (${statuses})`;
  });
  if (more) lines.push(moreLine(more, 'unit items', '(name a customer or a department to narrow the list)'));
  for (const chunk of chunkLines(lines)) blocks.push(section(chunk));
  const worst = r.lines[0]!;
  return {
    text: `Short today${scope ? ` at ${escLine(scope)}` : ''}: ${count(r.missing)} pieces missing; worst ${escLine(worst.itemName)} at ${escLine(worst.unitName ?? 'no unit')} (${count(worst.missing)}).`,
    blocks,
  };
}
