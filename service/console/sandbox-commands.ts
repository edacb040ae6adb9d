/**
 * `sandbox ...` in the console: changes the data of the sandbox the console runs itself (`sandbox.changes`, see
 * sandbox/README.md "Changing the data"), so that a person can watch an alert fire. `sandbox short [customer]`
 * closes a cart count of today short, `sandbox signal [customer]` raises a high shortfall signal, `sandbox ticket
 * [customer]` moves the newest open ticket on to its next status (or opens one), `sandbox reset` serves the seeded
 * data again and `sandbox help` lists them. Each says in one line what changed, or in one sentence why nothing did.
 */
import { customerScope } from '../../chat/digests/kinds/customer-scope.ts';
import type { Sandbox } from '../../sandbox/index.ts';
import type { Cart, CartCount, QualityTicket, SandboxData } from '../../sandbox/model.ts';
import { ApiError } from '../../sandbox/server/errors.ts';
import { type Customer, LinenError, resolveCustomerFrom } from '../../shared/index.ts';

export const SANDBOX_HELP = [
  'Sandbox commands change the data of the sandbox this console runs, so that you can watch an alert fire:',
  '  sandbox short [customer]   close a cart count of today short',
  '  sandbox signal [customer]  raise a high shortfall signal',
  '  sandbox ticket [customer]  move the newest open quality ticket on to its next status (or open one)',
  '  sandbox reset              serve the seeded data again',
  'After a change the alerts are checked at once.',
].join('\n');

/** What the commands work with: the sandbox, the customers the console's key sees, and the org-local day. */
export interface SandboxCommandDeps {
  sandbox: Sandbox;
  customers: () => Promise<readonly Customer[]>;
  today: () => string;
}

export interface SandboxCommandResult {
  /** What the person reads: what changed, or why nothing did. */
  text: string;
  /** The data changed: the alerts are to be checked now. */
  changed: boolean;
}

/** `sandbox ...` (after `/linen`, if typed): the console's own words, not a command of the bot. */
export function isSandboxCommand(text: string): boolean {
  return /^sandbox(\s|$)/i.test(text.trim());
}

const said = (text: string): SandboxCommandResult => ({ text, changed: false });
const changed = (text: string): SandboxCommandResult => ({ text: `Sandbox: ${text}`, changed: true });

/** The words after `sandbox`, changing the sandbox's data. Never throws for what a person typed. */
export async function runSandboxCommand(text: string, deps: SandboxCommandDeps): Promise<SandboxCommandResult> {
  const [, verb = 'help', ...rest] = text.trim().split(/\s+/);
  const customer = rest.join(' ').replace(/^"(.*)"$/, '$1');
  try {
    switch (verb.toLowerCase()) {
      case 'help':
      case '?':
        return said(SANDBOX_HELP);
      case 'reset':
        if (customer) return said('sandbox reset takes nothing after it.');
        deps.sandbox.changes.reset();
        return changed('the seeded data is served again; every change made since the start is gone.');
      case 'short':
        return await closeShort(deps, await scopeOf(deps, customer));
      case 'signal':
        return await raiseSignal(deps, await scopeOf(deps, customer));
      case 'ticket':
        return await moveTicket(deps, await scopeOf(deps, customer));
      default:
        return said(`I don't know “sandbox ${verb}”; try sandbox short, signal, ticket, reset or help.`);
    }
  } catch (err) {
    // A customer not found, or a change the sandbox refuses: its own sentence.
    if (err instanceof LinenError) return said(err.userMessage);
    if (err instanceof ApiError) return said(err.message);
    throw err;
  }
}

interface Scope {
  /** The customer named, or null: every customer the key sees. */
  named: Customer | null;
  covers: (customerId: string | null) => boolean;
  /** `at Mercy General Hospital`, or `` for every customer. */
  words: string;
}

async function scopeOf(deps: SandboxCommandDeps, typed: string): Promise<Scope> {
  const customers = await deps.customers();
  if (!typed) {
    const visible = new Set(customers.map((c) => c.id));
    return { named: null, covers: (id) => id !== null && visible.has(id), words: '' };
  }
  const named = resolveCustomerFrom(typed, customers);
  // A group stands for itself and its locations.
  return { named, covers: customerScope({ customerIds: [named.id] }, customers), words: ` at ${named.name}` };
}

const customerName = (data: SandboxData, id: string) => data.customers.find((c) => c.id === id)?.name ?? id;

/**
 * A cart whose count of today is still pending (or not taken yet) closes short on its line that requires the most,
 * by half of it: a count that was pending is news to a `short` alert (an in-progress one already counts as short).
 */
function closeShort(deps: SandboxCommandDeps, scope: Scope): SandboxCommandResult {
  const data = deps.sandbox.data;
  const today = deps.today();
  const counts = new Map<string, CartCount>();
  for (const c of data.cart_counts) if (c.date === today) counts.set(c.cart_id, c);
  const candidates = data.carts
    .filter((cart) => cart.is_active && scope.covers(cart.customer_id))
    .map((cart) => ({ cart, count: counts.get(cart.id) }))
    .filter(({ count }) => count === undefined || count.status === 'pending')
    // A pending count first: the cart is due today.
    .sort((a, z) => Number(z.count !== undefined) - Number(a.count !== undefined));
  for (const { cart, count } of candidates) {
    const line = widestLine(cart, count);
    if (!line) continue;
    const shortBy = Math.ceil(line.required / 2);
    const closed = deps.sandbox.changes.closeCartCountShort({
      cart_id: cart.id,
      item_id: line.itemId,
      short_by: shortBy,
    });
    const where = `${customerName(data, cart.customer_id)}${cart.unit_name ? ` › ${cart.unit_name}` : ''}`;
    return changed(
      `cart ${cart.name} (${where}) was counted today and closed ${shortBy} ${line.itemName} short (${line.required} required, ${line.required - shortBy} delivered; count ${closed.id}).`,
    );
  }
  return said(
    `No cart${scope.words} has a count of today left to close: each is counted already (sandbox reset starts again).`,
  );
}

/** The line of a count (or of the cart's par, for a count not taken yet) that requires the most pieces. */
function widestLine(
  cart: Cart,
  count: CartCount | undefined,
): { itemId: string; itemName: string; required: number } | null {
  const lines = count
    ? count.lines.map((l) => ({ itemId: l.item_id, itemName: l.item_name, required: l.required }))
    : cart.par.map((p) => ({ itemId: p.item_id, itemName: p.item_name, required: p.par_quantity }));
  const widest = lines.sort((a, z) => z.required - a.required)[0];
  return widest && widest.required >= 1 ? widest : null;
}

/** A high shortfall streak on an item of a department of the customer (the first customer with one, if none named). */
function raiseSignal(deps: SandboxCommandDeps, scope: Scope): SandboxCommandResult {
  const data = deps.sandbox.data;
  for (const customer of data.customers) {
    if (!scope.covers(customer.id)) continue;
    const department = data.departments.find((d) => d.customer_id === customer.id);
    const itemId = (data.customer_items[customer.id] ?? [])[0];
    const item = data.items.find((i) => i.id === itemId);
    if (!department || !item) continue;
    const signal = deps.sandbox.changes.addSignal({
      kind: 'shortfall_streak',
      severity: 'high',
      customer_id: customer.id,
      department_id: department.id,
      item_id: item.id,
      summary: `${item.name} at ${department.name} under 80% of par for 3 straight days`,
    });
    return changed(
      `a high shortfall streak signal was raised at ${customer.name} › ${department.name}: ${signal.summary}.`,
    );
  }
  return said(`No customer${scope.words} has a department and an item a signal could be raised on.`);
}

const TICKET_STEPS: readonly QualityTicket['status'][] = ['new', 'acknowledged', 'in_progress', 'resolved', 'verified'];
const words = (status: string) => status.replaceAll('_', ' ');

/** The newest ticket not yet verified moves one step on; with none, a new one is opened. */
function moveTicket(deps: SandboxCommandDeps, scope: Scope): SandboxCommandResult {
  const data = deps.sandbox.data;
  const open = data.tickets
    .filter((t) => t.status !== 'verified' && scope.covers(t.customer_id))
    .sort((a, z) => z.created_at.localeCompare(a.created_at))[0];
  if (!open) {
    const customer = scope.named ?? data.customers.find((c) => scope.covers(c.id));
    if (!customer) return said('This key sees no customer to open a ticket for.');
    const opened = deps.sandbox.changes.openTicket({
      customer_id: customer.id,
      kind: 'stain',
      subject: 'Stains on bath towels',
    });
    return changed(`ticket ${opened.ticket_number} was opened for ${customer.name}: ${opened.subject}.`);
  }
  const next = TICKET_STEPS[TICKET_STEPS.indexOf(open.status) + 1]!;
  deps.sandbox.changes.changeTicket(open.id, {
    status: next,
    ...(next === 'resolved' ? { resolution_note: 'Rewashed and replaced the affected pieces.' } : {}),
  });
  return changed(
    `ticket ${open.ticket_number} (${customerName(data, open.customer_id)}) moved from ${words(open.status)} to ${words(next)}.`,
  );
}
