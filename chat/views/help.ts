/** `/linen help`, the usage of one subcommand, and the answer to an unknown subcommand. */

import type { Subcommand } from '../answers/grammar.ts';
import { type Content, note, text, title } from '../content/document.ts';
import { b, code, command, i, icon, joinRich, type Rich, r } from '../content/rich.ts';
import type { Surface } from '../surface.ts';

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

/** A subcommand's syntax; a channel is named only where the platform lets one be typed. */
const syntaxOf = (surface: Surface, sub: Exclude<Subcommand, 'help'>) =>
  USAGE[sub].syntax.replace(' [#channel]', surface.channelArgument ? ` [${surface.channelArgument}]` : '');

/** A subcommand's syntax and examples. */
const usage = (surface: Surface, sub: Exclude<Subcommand, 'help'>): Rich => {
  const u = USAGE[sub];
  const syntax = syntaxOf(surface, sub);
  const examples = surface.channelArgument ? u.examples : u.examples.filter((e) => !e.includes('#'));
  return r`${command(syntax)}\n${u.what}\n${i('e.g.')} ${joinRich(
    examples.map((e) => command(e)),
    '  ',
  )}`;
};

/** The connection commands (connections/connection-commands.ts): connecting a key, access rules, status. */
const connecting = (surface: Surface): Rich =>
  joinRich(
    [
      r`${b('Connecting Linen')} (${surface.admins})`,
      ...(surface.connectIn === 'channel'
        ? [
            r`${command('connect')} connect a Linen key (for every channel, or for this channel only)`,
            r`${command('disconnect [here]')} remove every key, or this channel's own key`,
          ]
        : [
            r`${command('connect')} connect your ${surface.organization}'s Linen key (in your 1:1 chat with Linen)`,
            r`${command('disconnect')} remove the ${surface.organization}'s key`,
          ]),
      r`${command('status')} what is connected (the key's last four characters) and where accounting answers appear`,
      ...(surface.adminHelp ?? []),
      r`${command(`access accounting allow|deny${surface.channelArgument ? ` [${surface.channelArgument}]` : ''}`)} · ${command('access accounting dms on|off')} where balance, invoices, purchase orders and their digests may appear`,
    ],
    '\n',
  );

export function helpView(surface: Surface, sentence?: Rich): Content {
  const subs = Object.keys(USAGE) as Exclude<Subcommand, 'help'>[];
  return {
    summary: [`Linen: ${subs.map((s) => syntaxOf(surface, s)).join(' | ')}`],
    parts: [
      title(`Linen in ${surface.name}`),
      ...(sentence ? [text(sentence)] : []),
      ...subs.map((s) => text(usage(surface, s))),
      text(connecting(surface)),
      note(r`A customer may be given by name or id. ${surface.privacy} ${command('help')} shows this again.`),
    ],
  };
}

export function usageView(surface: Surface, sub: Subcommand, problem: string): Content {
  if (sub === 'help') return helpView(surface);
  return {
    summary: r`${problem} Usage: ${command(syntaxOf(surface, sub))}`,
    parts: [text([icon('warning'), ' ', problem]), text(usage(surface, sub))],
  };
}

export function unknownView(surface: Surface, typed: string): Content {
  return helpView(surface, r`I don't know ${code(typed)}. Here is what ${command('')} can do:`);
}
