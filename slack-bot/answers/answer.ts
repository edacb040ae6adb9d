/**
 * One handler per subcommand: fetch the report through the shared client, then build the Block Kit with a
 * pure view function. `answer()` never throws: a failure becomes its one-sentence answer.
 */
import { lastNDays } from '../../shared/dates.ts';
import { NotFoundError } from '../../shared/errors.ts';
import type { Customer } from '../../shared/schemas/customers.ts';
import type { QualityTicket } from '../../shared/schemas/quality.ts';
import type { Message } from '../blocks/kit.ts';
import { fitMessage } from '../blocks/limits.ts';
import { type DigestStore, runDigestCommand } from '../digests/index.ts';
import type { SlackClient } from '../digests/slack.ts';
import type { LinenService } from '../linen.ts';
import type { BotLogger } from '../logger.ts';
import { balanceMessage } from '../views/balance.ts';
import { chooseCustomerMessage, errorMessage, shareFooter } from '../views/common.ts';
import { fillRateMessage } from '../views/fillrate.ts';
import { helpMessage, unknownMessage, usageMessage } from '../views/help.ts';
import { signalsMessage } from '../views/signals.ts';
import { ticketMessage, ticketsMessage } from '../views/tickets.ts';
import { describeError, friendlyError, isExpected } from './friendly-errors.ts';
import { type Command, formatCommand, parseCommand, withCustomer } from './grammar.ts';

export interface AnswerContext {
  linen: LinenService;
  logger?: BotLogger | undefined;
  now?: (() => number) | undefined;
  /** What `/linen digest ...` needs; absent: digests are not available. */
  digests?: DigestDeps | undefined;
  /** Who typed the command, and where (digest management needs both). */
  caller?: Caller | undefined;
}

export interface Caller {
  userId: string;
  channelId: string;
  teamId?: string | null | undefined;
}

export interface DigestDeps {
  /** The digest store (opened on first use in console mode). */
  store: () => Promise<DigestStore>;
  /** Checks the bot can post in a channel and resolves `#name`. */
  slack: SlackClient;
  /** `keyRefOf(LINEN_API_KEY)`: what new subscriptions store; undefined without a key. */
  keyRef: string | undefined;
  adminUserIds: readonly string[];
}

export interface Answer {
  message: Message;
  /** Whether the answer may be posted for everyone (data answers; not errors, help or choices). */
  shareable: boolean;
}

const data = (message: Message): Answer => ({ message, shareable: true });
const info = (message: Message): Answer => ({ message, shareable: false });

type Resolved = { customer: Customer } | { answer: Answer };

async function customerFor(ctx: AnswerContext, cmd: Command, input: string): Promise<Resolved> {
  const r = await ctx.linen.resolveCustomer(input);
  if (r.kind === 'found') return { customer: r.customer };
  if (r.kind === 'choose') {
    return { answer: info(chooseCustomerMessage(r.input, r.matches, (c) => formatCommand(withCustomer(cmd, c.id)))) };
  }
  const all = await ctx.linen.customers();
  return {
    answer: info(
      all.length > 0 && all.length <= 25
        ? chooseCustomerMessage(
            r.input,
            all,
            (c) => formatCommand(withCustomer(cmd, c.id)),
            `No customer named “${r.input}” is visible to this workspace's key. Customers it sees:`,
          )
        : errorMessage(`No customer named “${r.input}” is visible to this workspace's key.`),
    ),
  };
}

async function openTickets(ctx: AnswerContext): Promise<QualityTicket[]> {
  const c = ctx.linen.client;
  const lists = await Promise.all(
    (['new', 'acknowledged', 'in_progress'] as const).map((status) => c.qualityTickets.list({ status }).all()),
  );
  return lists.flat();
}

async function run(cmd: Command, ctx: AnswerContext): Promise<Answer> {
  const tz = ctx.linen.timeZone;
  const now = new Date((ctx.now ?? Date.now)());
  switch (cmd.kind) {
    case 'help':
      return info(helpMessage());
    case 'unknown':
      return info(unknownMessage(cmd.typed));
    case 'usage':
      return info(usageMessage(cmd.subcommand, cmd.problem));

    case 'balance': {
      let customer: Customer | undefined;
      if (cmd.customer) {
        const r = await customerFor(ctx, cmd, cmd.customer);
        if ('answer' in r) return r.answer;
        customer = r.customer;
      }
      const report = await ctx.linen.client.reports.accountsReceivable({ customerId: customer?.id });
      return data(balanceMessage(report, { timeZone: tz, now, customerName: customer?.name }));
    }

    case 'signals': {
      let customer: Customer | undefined;
      if (cmd.customer) {
        const r = await customerFor(ctx, cmd, cmd.customer);
        if ('answer' in r) return r.answer;
        customer = r.customer;
      }
      const [signals, customers] = await Promise.all([
        ctx.linen.client.inventory.signals({ customerId: customer?.id, kind: cmd.signalKind }).all(),
        ctx.linen.customers(),
      ]);
      return data(signalsMessage(signals, customers, { kind: cmd.signalKind, customerName: customer?.name }));
    }

    case 'ticket': {
      try {
        const t = await ctx.linen.client.reports.findTicket(cmd.number);
        return data(ticketMessage(t, tz));
      } catch (err) {
        if (err instanceof NotFoundError)
          return info(errorMessage(friendlyError(err, { subject: `ticket ${cmd.number}` })));
        throw err;
      }
    }

    case 'tickets': {
      const tickets =
        cmd.status === 'open'
          ? await openTickets(ctx)
          : await ctx.linen.client.qualityTickets.list({ status: cmd.status }).all();
      return data(ticketsMessage(tickets, cmd.status, tz));
    }

    case 'fillrate': {
      const r = await customerFor(ctx, cmd, cmd.customer);
      if ('answer' in r) return r.answer;
      const customer = r.customer;
      let department: { id: string; name: string } | undefined;
      if (cmd.department) {
        const q = cmd.department.trim().toLowerCase();
        const depts = customer.departments;
        department =
          depts.find((d) => d.id === cmd.department!.trim()) ??
          depts.find((d) => d.name.toLowerCase() === q) ??
          (depts.filter((d) => d.name.toLowerCase().includes(q)).length === 1
            ? depts.find((d) => d.name.toLowerCase().includes(q))
            : undefined);
        if (!department) {
          const names = depts.map((d) => d.name).join(', ');
          return info(
            errorMessage(
              depts.length
                ? `${customer.name} has no department “${cmd.department}”; its departments are ${names}.`
                : `${customer.name} has no departments; leave the department out.`,
            ),
          );
        }
      }
      const window = 'days' in cmd.window ? lastNDays(cmd.window.days, tz, now) : cmd.window;
      const report = await ctx.linen.client.reports.fillRate({
        customerId: customer.id,
        departmentId: department?.id,
        from: window.from,
        to: window.to,
      });
      return data(fillRateMessage(report, { customerName: customer.name, departmentName: department?.name }));
    }

    case 'digest': {
      const d = ctx.digests;
      if (!d || !ctx.caller) return info(errorMessage('Scheduled digests are not available here.'));
      const linen = ctx.linen.client; // no key: the friendly "no key configured" answer
      const reply = await runDigestCommand(cmd.args, {
        userId: ctx.caller.userId,
        channelId: ctx.caller.channelId,
        teamId: ctx.caller.teamId ?? null,
        store: await d.store(),
        slack: d.slack,
        linen,
        keyRef: d.keyRef!,
        timeZone: tz,
        clock: { now: () => new Date((ctx.now ?? Date.now)()) },
        adminUserIds: d.adminUserIds,
      });
      // Subscription management and previews are for the caller only: never shareable.
      return info({ text: reply.text, blocks: reply.blocks });
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
    if (isExpected(err)) ctx.logger?.info(line);
    else ctx.logger?.error(line);
    return info(errorMessage(sentence));
  }
}

export interface AnswerTextOptions {
  /** Add the "Share in channel" button to shareable answers (default true). */
  share?: boolean | undefined;
}

/** Parse, answer, add the share button, fit Slack's limits. */
export async function answerText(
  text: string,
  ctx: AnswerContext,
  opts: AnswerTextOptions = {},
): Promise<Message & { shareable: boolean; command: string }> {
  const cmd = parseCommand(text);
  const a = await answer(cmd, ctx);
  const command = formatCommand(cmd);
  const blocks = a.shareable && opts.share !== false ? [...a.message.blocks, shareFooter(command)] : a.message.blocks;
  return { ...fitMessage({ text: a.message.text, blocks }), shareable: a.shareable, command };
}
