/**
 * Inventory signals: one raised as a nightly run would raise it, and a signal's status and severity changed.
 *
 * `generated_at` is "the last nightly run that confirmed it": it moves to the instant of the change when the
 * change is one a run makes (a new signal, a reopening, a new severity, window or summary), and stays when people
 * act on the signal (acknowledge, dismiss, resolve).
 */
import type { InventorySignal, LocalDate, SandboxData } from '../model.ts';
import { addDays } from '../server/dates.ts';
import { invalidParams, notFound } from '../server/errors.ts';
import {
  type ChangeContext,
  customerOf,
  departmentOf,
  inserted,
  isoOf,
  itemOf,
  notAfterToday,
  type Outcome,
  replaced,
} from './context.ts';
import type { AddSignal, ChangeSignal } from './input.ts';

const SEVERITY_RANK: Record<InventorySignal['severity'], number> = { high: 0, medium: 1, low: 2 };

/** The list order: severity high to low, then newest `generated_at`, then id. */
function signalOrder(a: InventorySignal, b: InventorySignal): number {
  return (
    SEVERITY_RANK[a.severity] - SEVERITY_RANK[b.severity] ||
    (a.generated_at !== b.generated_at ? (a.generated_at < b.generated_at ? 1 : -1) : 0) ||
    (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)
  );
}

function checkSuggestion(kind: string, qty: number | null | undefined): void {
  if (qty != null && kind !== 'circulation_breach')
    throw invalidParams(`"suggested_order_qty" is only set on circulation_breach signals, not on ${kind}.`);
}

function checkWindow(ctx: ChangeContext, start: LocalDate, end: LocalDate): void {
  notAfterToday(ctx, 'window_end', end);
  if (start > end) throw invalidParams(`"window_start" (${start}) is after "window_end" (${end}).`);
}

/** Where a signal's data sits, for a default summary: "Bath Towel at ICU", "All linen at Harborview Hotel". */
function placeOf(data: SandboxData, s: Pick<InventorySignal, 'customer_id' | 'department_id' | 'item_name'>): string {
  const where =
    (s.department_id && data.departments.find((d) => d.id === s.department_id)?.name) ||
    (s.customer_id && data.customers.find((c) => c.id === s.customer_id)?.name) ||
    data.organization.name;
  return `${s.item_name ?? 'All linen'} at ${where}`;
}

export function raiseSignal(ctx: ChangeContext, input: AddSignal): Outcome<InventorySignal> {
  const { data } = ctx;
  const customer = input.customer_id === null ? null : customerOf(data, input.customer_id);
  if (customer === null && input.department_id != null)
    throw invalidParams('"department_id" needs a "customer_id": a signal without a customer has no department.');
  const department = customer ? departmentOf(data, customer, input.department_id) : null;
  const item = input.item_id == null ? null : itemOf(data, input.item_id);
  if (customer && item && !(data.customer_items[customer.id] ?? []).includes(item.id))
    throw invalidParams(`Item ${item.name} is not in the catalog of ${customer.name}.`);
  checkSuggestion(input.kind, input.suggested_order_qty);
  const windowEnd = input.window_end ?? addDays(ctx.today, -1);
  const windowStart = input.window_start ?? addDays(windowEnd, -6);
  checkWindow(ctx, windowStart, windowEnd);
  const base = {
    customer_id: customer?.id ?? null,
    department_id: department?.id ?? null,
    item_name: item?.name ?? null,
  };
  const signal: InventorySignal = {
    id: ctx.newId(),
    kind: input.kind,
    severity: input.severity ?? 'medium',
    status: input.status ?? 'open',
    ...base,
    item_id: item?.id ?? null,
    summary: input.summary ?? `${placeOf(data, base)}: ${input.kind.replaceAll('_', ' ')}`,
    suggested_order_qty: input.suggested_order_qty ?? null,
    window_start: windowStart,
    window_end: windowEnd,
    generated_at: isoOf(ctx.at()),
  };
  return {
    next: { ...data, signals: inserted(data.signals, signal, signalOrder) },
    answer: signal,
    ids: [signal.id],
  };
}

export function changeSignal(ctx: ChangeContext, id: string, input: ChangeSignal): Outcome<InventorySignal> {
  const { data } = ctx;
  const signal = data.signals.find((s) => s.id === id);
  if (!signal) throw notFound(`Signal "${id}" was not found.`);
  if (Object.values(input).every((v) => v === undefined))
    throw invalidParams('Nothing to change: give "status", "severity", "summary", a window or "suggested_order_qty".');
  if (input.suggested_order_qty !== undefined) checkSuggestion(signal.kind, input.suggested_order_qty);
  const windowStart = input.window_start ?? signal.window_start;
  const windowEnd = input.window_end ?? signal.window_end;
  checkWindow(ctx, windowStart, windowEnd);
  const status = input.status ?? signal.status;
  const reconfirmed =
    (status === 'open' && signal.status !== 'open') ||
    (input.severity !== undefined && input.severity !== signal.severity) ||
    (input.summary !== undefined && input.summary !== signal.summary) ||
    windowStart !== signal.window_start ||
    windowEnd !== signal.window_end;
  const changed: InventorySignal = {
    ...signal,
    status,
    severity: input.severity ?? signal.severity,
    summary: input.summary ?? signal.summary,
    suggested_order_qty:
      input.suggested_order_qty === undefined ? signal.suggested_order_qty : input.suggested_order_qty,
    window_start: windowStart,
    window_end: windowEnd,
    generated_at: reconfirmed ? isoOf(ctx.at()) : signal.generated_at,
  };
  // A new severity or run moves the signal in the list: take it out and put it back in its place.
  const others = data.signals.filter((s) => s.id !== id);
  const signals =
    changed.severity === signal.severity && changed.generated_at === signal.generated_at
      ? replaced(data.signals, changed)
      : inserted(others, changed, signalOrder);
  return { next: { ...data, signals }, answer: changed, ids: [id] };
}
