/** `/linen po [customer]`: active purchase orders, the least budget left first. */

import { dayInZone } from '../../shared/dates.ts';
import type { PoStatus } from '../../shared/reports/index.ts';
import { type Block, context, header, type Message, section } from '../../slack-bot/blocks/kit.ts';
import { chunkLines, moreLine, take } from '../../slack-bot/blocks/limits.ts';
import { bold, escLine, money, pct, plain, plural } from '../../slack-bot/blocks/mrkdwn.ts';

export const MAX_POS = 30;
/** Remaining share under which an order is flagged. */
export const LOW_BUDGET_SHARE = 0.2;

export function expiryText(days: number): string {
  if (days < 0) return `expired ${plural(-days, 'day')} ago`;
  if (days === 0) return 'expires today';
  return `expires in ${plural(days, 'day')}`;
}

export interface PoViewOptions {
  timeZone: string;
  customerNames: ReadonlyMap<string, string>;
  customerName?: string | undefined;
}

export function poLine(p: PoStatus, opts: PoViewOptions & { several?: boolean }): string {
  const low = p.remainingShare !== null && p.remainingShare < LOW_BUDGET_SHARE;
  const who =
    opts.customerName && !opts.several ? '' : ` · ${escLine(opts.customerNames.get(p.customer_id) ?? p.customer_id)}`;
  return `${low ? ':warning: ' : ''}${bold(escLine(p.po_number))}${who}: *${money(p.remaining_cents, p.currency)} left* of ${money(p.total_cents, p.currency)} (${pct(p.spentShare)} spent) · ${expiryText(p.daysToExpiry)} (${dayInZone(new Date(p.expires_at), opts.timeZone)})`;
}

export function poMessage(pos: readonly PoStatus[], opts: PoViewOptions): Message {
  const title = opts.customerName ? `Purchase orders: ${plain(opts.customerName)}` : 'Purchase orders';
  const blocks: Block[] = [header(title)];
  if (pos.length === 0) {
    blocks.push(section('No active purchase orders.'));
    return { text: 'No active purchase orders.', blocks };
  }
  const { shown, more } = take(pos, MAX_POS);
  const several = new Set(pos.map((p) => p.customer_id)).size > 1;
  const lines = shown.map((p) => poLine(p, { ...opts, several }));
  if (more) lines.push(moreLine(more, 'purchase orders'));
  for (const chunk of chunkLines(lines)) blocks.push(section(chunk));
  const low = pos.filter((p) => p.remainingShare !== null && p.remainingShare < LOW_BUDGET_SHARE).length;
  blocks.push(
    context(
      `${plural(pos.length, 'active purchase order')}, the least budget left first; :warning: under ${pct(LOW_BUDGET_SHARE)} left. Days to expiry are org-local days.`,
    ),
  );
  return {
    text: `${plural(pos.length, 'active purchase order')}${low ? `, ${low} under ${pct(LOW_BUDGET_SHARE)} left` : ''}. Least left: ${escLine(pos[0]!.po_number)} ${money(pos[0]!.remaining_cents, pos[0]!.currency)}.`,
    blocks,
  };
}
