/**
 * One handler per subcommand: fetch the report through the shared client, then build the answer's content with a
 * pure view function (each platform renders it). `answer()` never throws: a failure becomes its one-sentence answer.
 */

import { failureFields } from '../../base/logging/log-fields.ts';
import type { ServiceLogger } from '../../base/logging/logger.ts';
import { lastCompleteDays } from '../../shared/dates.ts';
import { NotFoundError } from '../../shared/errors.ts';
import { groupWithoutOwn, OPEN_TICKET_STATUSES, signalsOfKind } from '../../shared/reports/index.ts';
import type { Customer } from '../../shared/schemas/customers.ts';
import type { Content } from '../content/document.ts';
import type { Rich } from '../content/rich.ts';
import type { DigestChannels, DigestCommandContext } from '../digests/digest-answers.ts';
import { type DigestStore, runDigestCommand } from '../digests/index.ts';
import type { DigestKind, Platform } from '../digests/storage/types.ts';
import type { LinenService } from '../linen.ts';
import { PLAIN_SURFACE, type Surface } from '../surface.ts';
import { balanceView } from '../views/balance.ts';
import { errorView, shareFooter, withNote } from '../views/common.ts';
import { fillRateView } from '../views/fillrate.ts';
import { helpView, unknownView, usageView } from '../views/help.ts';
import { invoicesView } from '../views/invoices.ts';
import { manifestView } from '../views/manifest.ts';
import { orderView } from '../views/order.ts';
import { poView } from '../views/po.ts';
import { rewashView } from '../views/rewash.ts';
import { shortView } from '../views/short.ts';
import { signalsView } from '../views/signals.ts';
import { ticketsView, ticketView } from '../views/tickets.ts';
import { customerAndPlace, customerFor, departmentOf, namedCustomer, namesOf, ownOrLocations } from './customers.ts';
import { describeError, friendlyError, isExpected } from './friendly-errors.ts';
import { type Command, formatCommand, parseCommand, TICKET_FILTERS } from './grammar.ts';
import { type AnswerOutcome, outcomeOfError } from './outcome.ts';

export interface AnswerContext {
  linen: LinenService;
  logger?: ServiceLogger | undefined;
  now?: (() => number) | undefined;
  /** The platform the answer is shown on (its name and words; default plain words). */
  surface?: Surface | undefined;
  /** What `/linen digest ...` needs; absent: digests are not available. */
  digests?: DigestDeps | undefined;
  /** Who typed the command, and where (digest management needs both). */
  caller?: Caller | undefined;
}

export interface Caller {
  userId: string;
  channelId: string;
  teamId?: string | null | undefined;
  channelName?: string | null | undefined;
  serviceUrl?: string | null | undefined;
}

export interface DigestDeps {
  /** The platform new subscriptions are posted on. */
  platform: Platform;
  /** The digest store (opened on first use in console mode). */
  store: () => Promise<DigestStore>;
  /** Checks the bot can post in a channel and resolves `#name`. */
  channels: DigestChannels;
  /** `keyRefOf(LINEN_API_KEY)`: what new subscriptions store; undefined without a key. */
  keyRef: string | undefined;
  /** Key references the worker can read with (default: `[keyRef]`). */
  keyRefs?: readonly string[] | undefined;
  /** The platform's users who alone may manage digests (Slack's LINEN_ADMIN_USER_IDS); none: anyone may. */
  adminUserIds?: readonly string[] | undefined;
  /** Null when a digest of this kind may be posted in the channel; otherwise the sentence that refuses it. */
  refuseKind?: ((kind: DigestKind, channelId: string) => Rich | null) | undefined;
  /** The key bound to a digest's channel (installed workspaces bind keys per channel). */
  keyForChannel?: DigestCommandContext['keyForChannel'] | undefined;
}

/** What every platform's `digest` commands share; each adapter adds its platform, its channels and its admins. */
export type SharedDigestDeps = Omit<DigestDeps, 'platform' | 'channels' | 'adminUserIds'>;

export interface Answer {
  content: Content;
  /** Whether the answer may be posted for everyone (data answers; not errors, help or choices). */
  shareable: boolean;
  /** What became of the command, for the metrics (see `outcome.ts`). */
  outcome: AnswerOutcome;
}

const data = (content: Content): Answer => ({ content, shareable: true, outcome: 'answered' });
const info = (content: Content): Answer => ({ content, shareable: false, outcome: 'answered' });

const noted = (content: Content, note: string | undefined) => (note ? withNote(content, note) : content);

async function run(cmd: Command, ctx: AnswerContext): Promise<Answer> {
  const surface = ctx.surface ?? PLAIN_SURFACE;
  const tz = ctx.linen.timeZone;
  const now = new Date((ctx.now ?? Date.now)());
  switch (cmd.kind) {
    case 'help':
      return info(helpView(surface));
    case 'unknown':
      return info(unknownView(surface, cmd.typed));
    case 'usage':
      return info(usageView(surface, cmd.subcommand, cmd.problem));

    case 'balance': {
      const named = await namedCustomer(ctx, cmd, cmd.customer);
      if ('reply' in named) return info(named.reply);
      const { customer } = named;
      // The list that resolved the name also tells whether a customer that owes nothing is a group.
      const report = await ctx.linen.client.reports.accountsReceivable({
        customerId: customer?.id,
        customers: customer ? await ctx.linen.customers() : undefined,
      });
      return data(balanceView(report, { timeZone: tz, now, customerName: customer?.name }));
    }

    case 'signals': {
      const named = await namedCustomer(ctx, cmd, cmd.customer);
      if ('reply' in named) return info(named.reply);
      const { customer } = named;
      // One listing of every kind, filtered here: `shortfall` is several kinds, and the list of kinds is open.
      const [listed, customers] = await Promise.all([
        ctx.linen.client.inventory.signals({ customerId: customer?.id }).all(),
        ctx.linen.customers(),
      ]);
      const signals = cmd.signalKind ? signalsOfKind(listed, cmd.signalKind) : listed;
      return data(signalsView(signals, customers, { kind: cmd.signalKind, customerName: customer?.name }));
    }

    case 'ticket': {
      try {
        const t = await ctx.linen.client.reports.findTicket(cmd.number);
        return data(ticketView(t, tz));
      } catch (err) {
        if (err instanceof NotFoundError)
          return info(errorView(friendlyError(err, { subject: `ticket ${cmd.number}` })));
        throw err;
      }
    }

    case 'tickets': {
      const customers = await ctx.linen.customers();
      let customer: Customer | undefined;
      if (cmd.customer) {
        const r = await ctx.linen.resolveCustomer(cmd.customer);
        if (r.kind === 'none' && !/\s/.test(r.input))
          return info(
            usageView(
              surface,
              'tickets',
              `“${r.input}” is neither a customer nor a ticket status (${TICKET_FILTERS.join(', ')}).`,
            ),
          );
        const found = await customerFor(ctx, cmd, cmd.customer);
        if ('reply' in found) return info(found.reply);
        customer = found.customer;
      }
      // A ticket does not say whose it is: one listing per customer, each ticket tagged with it.
      const statuses = cmd.status === 'open' ? OPEN_TICKET_STATUSES : [cmd.status];
      const tickets = await ownOrLocations(ctx, customer, 'tickets', (ids) =>
        ctx.linen.client.reports.tickets({ customerIds: ids ?? customers.map((c) => c.id), statuses }),
      );
      const message = ticketsView(tickets.rows, cmd.status, tz, {
        customerNames: namesOf(customers),
        customerName: tickets.note ? undefined : customer?.name,
      });
      return data(noted(message, tickets.note));
    }

    case 'fillrate': {
      const r = await customerFor(ctx, cmd, cmd.customer);
      if ('reply' in r) return info(r.reply);
      const customer = r.customer;
      let department: { id: string; name: string } | undefined;
      if (cmd.department) {
        department = departmentOf(customer, cmd.department);
        if (!department) {
          const depts = customer.departments;
          const names = depts.map((d) => d.name).join(', ');
          return info(
            errorView(
              depts.length
                ? `${customer.name} has no department “${cmd.department}”; its departments are ${names}.`
                : `${customer.name} has no departments; leave the department out.`,
            ),
          );
        }
      }
      // A number of days means whole days ending yesterday: today is only partly delivered.
      const window = 'days' in cmd.window ? lastCompleteDays(cmd.window.days, tz, now) : cmd.window;
      const report = await ctx.linen.client.reports.fillRate({
        customerId: customer.id,
        departmentId: department?.id,
        from: window.from,
        to: window.to,
      });
      if (customer.is_group && report.rows + report.rowsWithoutPar === 0)
        throw groupWithoutOwn(customer, await ctx.linen.customers(), 'deliveries', window);
      return data(fillRateView(report, { customerName: customer.name, departmentName: department?.name }));
    }

    case 'short': {
      let customer: Customer | undefined;
      let place = cmd.place;
      if (cmd.customer) {
        const r = await customerAndPlace(ctx, cmd, cmd.customer, cmd.place !== undefined);
        if ('reply' in r) return info(r.reply);
        customer = r.customer;
        place = r.place ?? place;
      }
      const [report, customers] = await Promise.all([
        ctx.linen.client.reports.shortToday({ customerId: customer?.id, place, asOf: now }),
        ctx.linen.customers(),
      ]);
      if (customer?.is_group && report.carts + report.pendingCarts === 0)
        throw groupWithoutOwn(customer, customers, 'cart counts', report.window);
      return data(
        shortView(report, {
          customerNames: namesOf(customers),
          customerName: customer?.name,
        }),
      );
    }

    case 'rewash': {
      const r = await customerFor(ctx, cmd, cmd.customer);
      if ('reply' in r) return info(r.reply);
      const window = 'days' in cmd.window ? lastCompleteDays(cmd.window.days, tz, now) : cmd.window;
      const report = await ctx.linen.client.reports.rewashRate({ customerId: r.customer.id, ...window });
      if (r.customer.is_group && report.manifests + report.batches + report.voided === 0)
        throw groupWithoutOwn(r.customer, await ctx.linen.customers(), 'manifests or rewash', window);
      return data(rewashView(report, { customerName: r.customer.name }));
    }

    case 'manifest': {
      const named = await namedCustomer(ctx, cmd, cmd.customer);
      if ('reply' in named) return info(named.reply);
      const { customer } = named;
      const [found, customers] = await Promise.all([
        ctx.linen.client.reports.findManifests(cmd.number, { customerId: customer?.id }),
        ctx.linen.customers(),
      ]);
      return data(manifestView(found, { timeZone: tz, customerNames: namesOf(customers) }));
    }

    case 'order': {
      const [found, customers] = await Promise.all([
        ctx.linen.client.reports.findOrders(cmd.number),
        ctx.linen.customers(),
      ]);
      return data(orderView(found, { timeZone: tz, customerNames: namesOf(customers) }));
    }

    case 'po': {
      const named = await namedCustomer(ctx, cmd, cmd.customer);
      if ('reply' in named) return info(named.reply);
      const { customer } = named;
      const [pos, customers] = await Promise.all([
        ownOrLocations(ctx, customer, 'active purchase orders', (customerIds) =>
          ctx.linen.client.reports.purchaseOrders({ customerIds, asOf: now }),
        ),
        ctx.linen.customers(),
      ]);
      const message = poView(pos.rows, {
        timeZone: tz,
        customerNames: namesOf(customers),
        customerName: pos.note ? undefined : customer?.name,
      });
      return data(noted(message, pos.note));
    }

    case 'invoices': {
      const named = await namedCustomer(ctx, cmd, cmd.customer);
      if ('reply' in named) return info(named.reply);
      const { customer } = named;
      const [invoices, customers] = await Promise.all([
        ownOrLocations(ctx, customer, 'open invoices', (customerIds) =>
          ctx.linen.client.reports.openInvoices({ customerIds, asOf: now }),
        ),
        ctx.linen.customers(),
      ]);
      const message = invoicesView(invoices.rows, {
        timeZone: tz,
        customerNames: namesOf(customers),
        departmentNames: new Map(customers.flatMap((c) => c.departments.map((d) => [d.id, d.name] as const))),
        customerName: invoices.note ? undefined : customer?.name,
        overdueOnly: cmd.overdue,
      });
      return data(noted(message, invoices.note));
    }

    case 'digest': {
      const d = ctx.digests;
      if (!d || !ctx.caller) return info(errorView('Scheduled digests are not available here.'));
      const linen = ctx.linen.client; // no key: the friendly "no key configured" answer
      const reply = await runDigestCommand(cmd.args, {
        platform: d.platform,
        userId: ctx.caller.userId,
        channelId: ctx.caller.channelId,
        channelName: ctx.caller.channelName ?? null,
        serviceUrl: ctx.caller.serviceUrl ?? null,
        teamId: ctx.caller.teamId ?? null,
        store: await d.store(),
        channels: d.channels,
        linen,
        keyRef: d.keyRef!,
        ...(d.keyRefs ? { keyRefs: d.keyRefs } : {}),
        ...(d.refuseKind ? { refuseKind: d.refuseKind } : {}),
        ...(d.keyForChannel ? { keyForChannel: d.keyForChannel } : {}),
        timeZone: tz,
        clock: { now: () => new Date((ctx.now ?? Date.now)()) },
        adminUserIds: d.adminUserIds ?? [],
      });
      // Subscription management and previews are for the caller only: never shareable.
      return info(reply);
    }
  }
}

/** The answer to a parsed command; failures become one friendly sentence (and one log line). */
export async function answer(cmd: Command, ctx: AnswerContext): Promise<Answer> {
  try {
    return await run(cmd, ctx);
  } catch (err) {
    const sentence = friendlyError(err);
    const line = `/linen ${formatCommand(cmd)} failed: ${describeError(err)}`;
    if (isExpected(err)) ctx.logger?.info(line, failureFields(err));
    else ctx.logger?.error(line, failureFields(err));
    return { content: errorView(sentence), shareable: false, outcome: outcomeOfError(err) };
  }
}

export interface AnswerTextOptions {
  /** Add the "Share in channel" button to shareable answers (default true). */
  share?: boolean | undefined;
}

/** Parse, answer, and add the share action to an answer that may be shared. */
export async function answerText(
  text: string,
  ctx: AnswerContext,
  opts: AnswerTextOptions = {},
): Promise<{ content: Content; shareable: boolean; command: string; outcome: AnswerOutcome }> {
  const cmd = parseCommand(text);
  const a = await answer(cmd, ctx);
  const command = formatCommand(cmd);
  const parts = a.shareable && opts.share !== false ? [...a.content.parts, shareFooter(command)] : a.content.parts;
  return { content: { summary: a.content.summary, parts }, shareable: a.shareable, command, outcome: a.outcome };
}
