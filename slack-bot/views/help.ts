/** `/linen help`, the usage of one subcommand, and the answer to an unknown subcommand. */

import type { Subcommand } from '../answers/grammar.ts';
import { context, header, type Message, section } from '../blocks/kit.ts';
import { code, esc } from '../blocks/mrkdwn.ts';

export const COMMAND = '/linen';

const USAGE: Record<Exclude<Subcommand, 'help'>, { syntax: string; what: string; examples: string[] }> = {
  balance: {
    syntax: 'balance [customer]',
    what: 'Open balance and aging per customer, with the open invoices (each with a PDF button).',
    examples: ['balance', 'balance Mercy General Hospital'],
  },
  signals: {
    syntax: 'signals [kind] [customer]',
    what: 'Open and acknowledged inventory signals, shortfalls first, by customer and department.',
    examples: ['signals', 'signals shortfall_streak', "signals St. Luke's Medical Center"],
  },
  ticket: {
    syntax: 'ticket <TKT-YY-#####>',
    what: "A quality ticket's status, dates, resolution and updates.",
    examples: ['ticket TKT-26-00417'],
  },
  tickets: {
    syntax: 'tickets [open|new|acknowledged|in_progress|resolved|verified]',
    what: 'Quality tickets by status (open ones by default).',
    examples: ['tickets', 'tickets resolved'],
  },
  fillrate: {
    syntax: 'fillrate <customer> [days | from to] [department]',
    what: 'Fill rate against par (default: the last 7 days), worst items first, with a per-day trend. Quote names with spaces when a department follows without a window.',
    examples: [
      'fillrate Harborview Hotel',
      'fillrate "Mercy General Hospital" 14 ICU',
      'fillrate Harborview Hotel 2026-11-01 2026-11-15',
    ],
  },
  digest: {
    syntax:
      'digest subscribe [#channel] [daily|weekdays|mon,wed,fri] [HH:MM] [customer, ...] [low|medium|high] [all-clear] | list | unsubscribe <id> | pause <id> | resume <id> | preview [id]',
    what: 'A scheduled shortfall digest in a channel (default: this channel, daily at 07:00 org time, all customers, every severity).',
    examples: ['digest subscribe', 'digest subscribe #linen-ops weekdays 06:30 high', 'digest list', 'digest preview'],
  },
};

const line = (sub: Exclude<Subcommand, 'help'>) => {
  const u = USAGE[sub];
  return `${code(esc(`${COMMAND} ${u.syntax}`))}\n${esc(u.what)}\n_e.g._ ${u.examples.map((e) => code(esc(`${COMMAND} ${e}`))).join('  ')}`;
};

export function helpMessage(note?: string): Message {
  const subs = Object.keys(USAGE) as Exclude<Subcommand, 'help'>[];
  return {
    text: esc(`${COMMAND}: ${subs.map((s) => USAGE[s].syntax).join(' | ')}`),
    blocks: [
      header('Linen in Slack: /linen'),
      ...(note ? [section(note)] : []),
      ...subs.map((s) => section(line(s))),
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
