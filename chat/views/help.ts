/** `/linen help`, the usage of one subcommand, and the answer to an unknown subcommand. */

import { context, header, type Message, section } from '../../slack-bot/blocks/kit.ts';
import { code, esc } from '../../slack-bot/blocks/mrkdwn.ts';
import type { Subcommand } from '../answers/grammar.ts';

export const COMMAND = '/linen';

const USAGE: Record<Exclude<Subcommand, 'help'>, { syntax: string; what: string; examples: string[] }> = {
  balance: {
    syntax: 'balance [customer]',
    what: 'Open balance and aging per customer, with the open invoices (each with a PDF button). A group with no balance of its own shows its locations, labelled.',
    examples: ['balance', 'balance Mercy General Hospital'],
  },
  invoices: {
    syntax: 'invoices [customer] [overdue]',
    what: 'Open invoices with their department and days overdue, most overdue first; "overdue" keeps the overdue ones.',
    examples: ['invoices overdue', 'invoices Mercy General Hospital'],
  },
  po: {
    syntax: 'po [customer]',
    what: 'Active purchase orders: budget left, percent spent and days to expiry, the least left first.',
    examples: ['po', 'po Harborview Hotel'],
  },
  signals: {
    syntax: 'signals [kind | shortfall] [customer]',
    what: 'Open and acknowledged inventory signals, shortfalls first, by customer and department. "shortfall" means shortfall streaks and circulation breaches.',
    examples: ['signals', 'signals shortfall', 'signals circulation_breach', "signals St. Luke's Medical Center"],
  },
  short: {
    syntax: 'short [customer] [department | unit]',
    what: 'What is missing right now by unit and item, from the latest cart counts (required against delivered), worst first.',
    examples: ['short', 'short Mercy General Hospital ICU'],
  },
  ticket: {
    syntax: 'ticket <TKT-YY-#####>',
    what: "A quality ticket's status, dates, resolution and updates.",
    examples: ['ticket TKT-26-00417'],
  },
  tickets: {
    syntax: 'tickets [customer] [open|new|acknowledged|in_progress|resolved|verified]',
    what: 'Quality tickets by status (open ones by default), each with its customer.',
    examples: ['tickets', 'tickets Harborview Hotel', 'tickets Mercy General Hospital resolved'],
  },
  fillrate: {
    syntax: 'fillrate <customer> [days | from to] [department]',
    what: 'Fill rate and par met against par, short days, worst items first, with a per-day trend (default: the last 7 whole days, today left out). Quote names with spaces when a department follows without a window.',
    examples: [
      'fillrate Harborview Hotel',
      'fillrate "Mercy General Hospital" 14 ICU',
      'fillrate Harborview Hotel 2026-11-01 2026-11-15',
    ],
  },
  rewash: {
    syntax: 'rewash <customer> [days | from to]',
    what: 'Rewash pounds as a share of soil pounds (default: the last 30 whole days), split into soil fault and processing error (the basis of a credit).',
    examples: ['rewash Mercy General Hospital', 'rewash Harborview Hotel 90'],
  },
  manifest: {
    syntax: 'manifest <MAN-YY-######> [customer]',
    what: 'Proof of delivery: who signed and when, weights, bins, held rewash and rewash links. Every manifest the number matches.',
    examples: ['manifest MAN-26-027570'],
  },
  order: {
    syntax: 'order <DS-YY-#####>',
    what: 'A direct-sales order with its lines, charges and totals.',
    examples: ['order DS-26-01622'],
  },
  digest: {
    syntax:
      'digest subscribe [shortfall|receivables|tickets|budgets] [#channel] [daily|weekly|weekdays|mon,wed,fri] [HH:MM] [customer, ...] [low|medium|high] [NN%] [NNd] [all-clear] | list | unsubscribe <id> | pause <id> | resume <id> | preview [id | kind]',
    what: 'Scheduled digests in a channel: shortfalls (daily at 07:00 by default), receivables (weekly: new overdue invoices and older aging), ticket status changes, budgets (purchase orders under NN% left or expiring within NN days).',
    examples: [
      'digest subscribe',
      'digest subscribe receivables #finance weekly',
      'digest subscribe budgets 25% 45d',
      'digest preview tickets',
    ],
  },
};

const line = (sub: Exclude<Subcommand, 'help'>) => {
  const u = USAGE[sub];
  return `${code(esc(`${COMMAND} ${u.syntax}`))}\n${esc(u.what)}\n_e.g._ ${u.examples.map((e) => code(esc(`${COMMAND} ${e}`))).join('  ')}`;
};

/** The workspace commands (workspaces/workspace-commands.ts): connecting a key, access rules, status. */
const CONNECTING = [
  '*Connecting Linen* (workspace admins and owners)',
  `${code(`${COMMAND} connect`)} connect a Linen key (for every channel, or for this channel only)`,
  `${code(`${COMMAND} disconnect [here]`)} remove every key, or this channel's own key`,
  `${code(`${COMMAND} status`)} what is connected (the key's last four characters) and where accounting answers appear`,
  `${code(`${COMMAND} access accounting allow|deny [#channel]`)} · ${code(`${COMMAND} access accounting dms on|off`)} where balance, invoices, purchase orders and their digests may appear`,
].join('\n');

export function helpMessage(note?: string): Message {
  const subs = Object.keys(USAGE) as Exclude<Subcommand, 'help'>[];
  return {
    text: esc(`${COMMAND}: ${subs.map((s) => USAGE[s].syntax).join(' | ')}`),
    blocks: [
      header('Linen in Slack: /linen'),
      ...(note ? [section(note)] : []),
      ...subs.map((s) => section(line(s))),
      section(CONNECTING),
      context(
        `A customer may be given by name or id. Answers are visible only to you until you press *Share in channel*. ${code(esc(`${COMMAND} help`))} shows this again.`,
      ),
    ],
  };
}

export function usageMessage(sub: Subcommand, problem: string): Message {
  if (sub === 'help') return helpMessage();
  return {
    text: esc(`${problem} Usage: ${COMMAND} ${USAGE[sub].syntax}`),
    blocks: [section(`:warning: ${esc(problem)}`), section(line(sub))],
  };
}

export function unknownMessage(typed: string): Message {
  return helpMessage(`I don't know ${code(esc(typed))}. Here is what ${code(COMMAND)} can do:`);
}
