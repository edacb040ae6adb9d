/** `/linen po [customer]`: active purchase orders, the least budget left first, as a table and as lines. */

import { dayInZone } from '../../shared/dates.ts';
import type { PoStatus } from '../../shared/reports/index.ts';
import { type Content, note, type Part, table, text, title } from '../content/document.ts';
import { money, moreLine, pct, plural, take } from '../content/format.ts';
import { chunkLines } from '../content/limits.ts';
import { b, icon, line, type Rich, r } from '../content/rich.ts';
import type { Table } from '../content/table.ts';

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

export function poLine(p: PoStatus, opts: PoViewOptions & { several?: boolean }): Rich {
  const low = p.remainingShare !== null && p.remainingShare < LOW_BUDGET_SHARE;
  const who =
    opts.customerName && !opts.several ? '' : ` · ${line(opts.customerNames.get(p.customer_id) ?? p.customer_id)}`;
  return r`${low ? [icon('warning'), ' '] : ''}${b(line(p.po_number))}${who}: ${b(`${money(p.remaining_cents, p.currency)} left`)} of ${money(p.total_cents, p.currency)} (${pct(p.spentShare)} spent) · ${expiryText(p.daysToExpiry)} (${dayInZone(new Date(p.expires_at), opts.timeZone)})`;
}

/** The orders listed, as a table: number, customer (when several), budget left, share spent, expiry day. */
function poTable(pos: readonly PoStatus[], opts: PoViewOptions, several: boolean): Table {
  return {
    title: 'Purchase orders',
    noun: 'purchase orders',
    columns: [
      { header: 'PO', type: 'text' },
      ...(several ? [{ header: 'Customer', type: 'text' as const }] : []),
      { header: 'Budget left', type: 'money' },
      { header: 'Spent', type: 'percent' },
      { header: 'Expires', type: 'date' },
    ],
    rows: pos.map((p) => [
      line(p.po_number),
      ...(several ? [line(opts.customerNames.get(p.customer_id) ?? p.customer_id)] : []),
      money(p.remaining_cents, p.currency),
      pct(p.spentShare),
      dayInZone(new Date(p.expires_at), opts.timeZone),
    ]),
    command: `po ${opts.customerName ? line(opts.customerName) : '<customer>'}`,
  };
}

export function poView(pos: readonly PoStatus[], opts: PoViewOptions): Content {
  const heading = opts.customerName ? `Purchase orders: ${line(opts.customerName)}` : 'Purchase orders';
  const parts: Part[] = [title(heading)];
  if (pos.length === 0) {
    parts.push(text(['No active purchase orders.']));
    return { summary: ['No active purchase orders.'], parts };
  }
  const { shown, more } = take(pos, MAX_POS);
  const several = new Set(pos.map((p) => p.customer_id)).size > 1;
  const list = shown.map((p) => poLine(p, { ...opts, several }));
  parts.push(
    table(
      poTable(shown, opts, several || !opts.customerName),
      chunkLines(list).map((chunk) => text(chunk)),
    ),
  );
  if (more) parts.push(text([moreLine(more, 'purchase orders')]));
  const low = pos.filter((p) => p.remainingShare !== null && p.remainingShare < LOW_BUDGET_SHARE).length;
  parts.push(
    note(
      r`${plural(pos.length, 'active purchase order')}, the least budget left first; ${icon('warning')} under ${pct(LOW_BUDGET_SHARE)} left. Days to expiry are org-local days.`,
    ),
  );
  return {
    summary: [
      `${plural(pos.length, 'active purchase order')}${low ? `, ${low} under ${pct(LOW_BUDGET_SHARE)} left` : ''}. Least left: ${line(pos[0]!.po_number)} ${money(pos[0]!.remaining_cents, pos[0]!.currency)}.`,
    ],
    parts,
  };
}
