/**
 * `/linen signals [kind] [customer]`: open and acknowledged signals by customer and department, as a table and as
 * lines.
 */
import { groupSignals, SHORTFALL_KINDS } from '../../shared/reports/index.ts';
import type { Customer } from '../../shared/schemas/customers.ts';
import type { InventorySignal } from '../../shared/schemas/inventory.ts';
import { type Content, note, type Part, table, text, title } from '../content/document.ts';
import { count, humanize, moreLine, plural, take } from '../content/format.ts';
import { CONTENT_LIMITS, chunkLines, partsUsed } from '../content/limits.ts';
import { b, type Icon, i, icon, joinRich, line, type Rich, r } from '../content/rich.ts';
import type { Table } from '../content/table.ts';

export const MAX_GROUPS = 20;
export const MAX_LINES_PER_GROUP = 12;

const RANK: Record<string, number> = { high: 3, medium: 2, low: 1 };
export const SEVERITY_ICON: Record<string, Icon> = { high: 'high', medium: 'medium', low: 'low' };

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

export function signalLine(s: InventorySignal): Rich {
  const severity = SEVERITY_ICON[s.severity];
  const parts: Rich[] = [
    severity ? r`${icon(severity)} ${b(humanize(s.severity))}` : [b(humanize(s.severity))],
    [humanize(line(s.kind))],
  ];
  // Most summaries name the item already.
  if (!s.item_name) parts.push(['all items']);
  else if (!s.summary.toLowerCase().includes(s.item_name.toLowerCase())) parts.push([line(s.item_name)]);
  return r`${joinRich(parts, ' · ')}: ${line(s.summary)}${s.status === 'acknowledged' ? [' ', i('(acknowledged)')] : ''}${
    s.kind === 'circulation_breach' && s.suggested_order_qty !== null
      ? [' · suggested order ', b(count(s.suggested_order_qty))]
      : ''
  }`;
}

/** The signals listed, as a table: severity, kind, customer › department, item, summary. */
function signalsTable(sections: readonly Section[], opts: SignalsViewOptions): Table {
  return {
    title: 'Inventory signals',
    noun: 'signals',
    columns: [
      { header: 'Severity', type: 'text' },
      { header: 'Kind', type: 'text' },
      { header: 'Customer › department', type: 'text' },
      { header: 'Item', type: 'text' },
      { header: 'Summary', type: 'text' },
    ],
    rows: sections.flatMap((sec) =>
      sec.signals.map((s) => [
        `${humanize(line(s.severity))}${s.status === 'acknowledged' ? ' (acknowledged)' : ''}`,
        humanize(line(s.kind)),
        `${line(sec.customerName)}${sec.departmentName ? ` › ${line(sec.departmentName)}` : ''}`,
        s.item_name ? line(s.item_name) : 'all items',
        line(s.summary),
      ]),
    ),
    command: `signals ${opts.kind ? line(opts.kind) : '<kind>'} ${opts.customerName ? line(opts.customerName) : '<customer>'}`,
  };
}

export interface SignalsViewOptions {
  kind?: string | undefined;
  customerName?: string | undefined;
}

export function signalsView(
  signals: readonly InventorySignal[],
  customers: readonly Customer[],
  opts: SignalsViewOptions = {},
): Content {
  const scope = [opts.kind ? humanize(opts.kind) : null, opts.customerName ? line(opts.customerName) : null]
    .filter(Boolean)
    .join(', ');
  const parts: Part[] = [title(scope ? `Inventory signals: ${scope}` : 'Inventory signals')];
  if (signals.length === 0) {
    parts.push(text([icon('ok'), ' No open or acknowledged signals.']));
    return { summary: ['No open or acknowledged inventory signals.'], parts };
  }
  const shortfalls = signals.filter(isShortfall).length;
  const sections = signalSections(signals, customers);
  parts.push(
    note([
      `${plural(signals.length, 'signal')} (${plural(shortfalls, 'shortfall')}) in ${plural(sections.length, 'group')}; shortfalls first, then by severity.`,
    ]),
  );
  // Room for the groups: the limit less the title, the note, the table, a "more" line and the share button.
  const budget = CONTENT_LIMITS.parts - partsUsed(parts) - 2 - 2;
  const groupParts: Part[] = [];
  const listed: Section[] = [];
  for (const s of sections.slice(0, MAX_GROUPS)) {
    const heading = r`${b(line(s.customerName))}${s.departmentName ? ` › ${line(s.departmentName)}` : ''}`;
    const taken = take(s.signals, MAX_LINES_PER_GROUP);
    const body: Rich[] = [heading, ...taken.shown.map(signalLine)];
    if (taken.more) body.push([moreLine(taken.more, 'signals')]);
    const chunks = chunkLines(body);
    if (groupParts.length + chunks.length > budget) break;
    for (const chunk of chunks) groupParts.push(text(chunk));
    listed.push({ ...s, signals: taken.shown });
  }
  const shownGroups = listed.length;
  parts.push(table(signalsTable(listed, opts), groupParts));
  const moreGroups = sections.length - shownGroups;
  if (moreGroups) parts.push(note([moreLine(moreGroups, 'groups', '(name a customer or a kind to narrow the list)')]));
  const first = sections[0]!;
  const lead = first.signals[0]!;
  return {
    summary: [
      `${plural(signals.length, 'inventory signal')}, ${plural(shortfalls, 'shortfall')}. Top: ${line(first.customerName)}${first.departmentName ? ` › ${line(first.departmentName)}` : ''}: ${line(lead.summary)}`,
    ],
    parts,
  };
}
