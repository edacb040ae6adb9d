/** `/linen signals [kind] [customer]`: open and acknowledged signals by customer and department. */
import { groupSignals, SHORTFALL_KINDS } from '../../shared/reports/index.ts';
import type { Customer } from '../../shared/schemas/customers.ts';
import type { InventorySignal } from '../../shared/schemas/inventory.ts';
import { type Block, context, header, type Message, section } from '../../slack-bot/blocks/kit.ts';
import { chunkLines, LIMITS, moreLine, take } from '../../slack-bot/blocks/limits.ts';
import { bold, count, escLine, humanize, plain, plural } from '../../slack-bot/blocks/mrkdwn.ts';

export const MAX_GROUPS = 20;
export const MAX_LINES_PER_GROUP = 12;

const RANK: Record<string, number> = { high: 3, medium: 2, low: 1 };
export const SEVERITY_ICON: Record<string, string> = {
  high: ':red_circle:',
  medium: ':large_orange_circle:',
  low: ':white_circle:',
};

const isShortfall = (s: InventorySignal) => (SHORTFALL_KINDS as readonly string[]).includes(s.kind);

interface Section {
  customerName: string;
  departmentName: string | null;
  signals: InventorySignal[];
}

const bySignal = (a: InventorySignal, b: InventorySignal) =>
  Number(isShortfall(b)) - Number(isShortfall(a)) ||
  (RANK[b.severity] ?? 0) - (RANK[a.severity] ?? 0) ||
  (a.generated_at < b.generated_at ? 1 : a.generated_at > b.generated_at ? -1 : 0);

/** The signals grouped by customer and department: groups with a shortfall first, then the most severe. */
export function signalSections(signals: readonly InventorySignal[], customers: readonly Customer[]): Section[] {
  const sections = new Map<string, Section>();
  for (const g of groupSignals(signals, customers)) {
    const key = `${g.customerId}\u0000${g.departmentId}`;
    let s = sections.get(key);
    if (!s) {
      s = {
        customerName: g.customerName ?? g.customerId ?? 'All customers',
        departmentName: g.departmentId ? (g.departmentName ?? g.departmentId) : null,
        signals: [],
      };
      sections.set(key, s);
    }
    s.signals.push(...g.signals);
  }
  const out = [...sections.values()];
  for (const s of out) s.signals.sort(bySignal);
  const top = (s: Section) => s.signals[0]!;
  return out.sort(
    (a, b) =>
      bySignal(top(a), top(b)) ||
      a.customerName.localeCompare(b.customerName) ||
      (a.departmentName ?? '').localeCompare(b.departmentName ?? ''),
  );
}

export function signalLine(s: InventorySignal): string {
  const parts = [`${SEVERITY_ICON[s.severity] ?? ''} ${bold(humanize(s.severity))}`.trim(), humanize(escLine(s.kind))];
  // Most summaries name the item already.
  if (!s.item_name) parts.push('all items');
  else if (!s.summary.toLowerCase().includes(s.item_name.toLowerCase())) parts.push(escLine(s.item_name));
  let line = `${parts.join(' · ')}: ${escLine(s.summary)}`;
  if (s.status === 'acknowledged') line += ' _(acknowledged)_';
  if (s.kind === 'circulation_breach' && s.suggested_order_qty !== null)
    line += ` · suggested order *${count(s.suggested_order_qty)}*`;
  return line;
}

export interface SignalsViewOptions {
  kind?: string | undefined;
  customerName?: string | undefined;
}

export function signalsMessage(
  signals: readonly InventorySignal[],
  customers: readonly Customer[],
  opts: SignalsViewOptions = {},
): Message {
  const scope = [opts.kind ? humanize(opts.kind) : null, opts.customerName ? plain(opts.customerName) : null]
    .filter(Boolean)
    .join(', ');
  const blocks: Block[] = [header(scope ? `Inventory signals: ${scope}` : 'Inventory signals')];
  if (signals.length === 0) {
    blocks.push(section(':white_check_mark: No open or acknowledged signals.'));
    return { text: 'No open or acknowledged inventory signals.', blocks };
  }
  const shortfalls = signals.filter(isShortfall).length;
  const sections = signalSections(signals, customers);
  blocks.push(
    context(
      `${plural(signals.length, 'signal')} (${plural(shortfalls, 'shortfall')}) in ${plural(sections.length, 'group')}; shortfalls first, then by severity.`,
    ),
  );
  // Room for the groups: 50 blocks less the header, the summary, a "more" line and the share button.
  const budget = LIMITS.blocks - blocks.length - 2;
  let shownGroups = 0;
  for (const s of sections.slice(0, MAX_GROUPS)) {
    const title = `${bold(escLine(s.customerName))}${s.departmentName ? ` › ${escLine(s.departmentName)}` : ''}`;
    const lines = take(s.signals, MAX_LINES_PER_GROUP);
    const body = [title, ...lines.shown.map(signalLine)];
    if (lines.more) body.push(moreLine(lines.more, 'signals'));
    const chunks = chunkLines(body);
    if (blocks.length - 2 + chunks.length > budget) break;
    for (const chunk of chunks) blocks.push(section(chunk));
    shownGroups++;
  }
  const moreGroups = sections.length - shownGroups;
  if (moreGroups)
    blocks.push(context(moreLine(moreGroups, 'groups', '(name a customer or a kind to narrow the list)')));
  const first = sections[0]!;
  const lead = first.signals[0]!;
  return {
    text: `${plural(signals.length, 'inventory signal')}, ${plural(shortfalls, 'shortfall')}. Top: ${escLine(first.customerName)}${first.departmentName ? ` › ${escLine(first.departmentName)}` : ''}: ${escLine(lead.summary)}`,
    blocks,
  };
}
