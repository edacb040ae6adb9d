/**
 * The `/linen` grammar: command text in, a typed command out. No I/O; every path is a value, so bad input
 * becomes a `usage` command that answers with the subcommand's help instead of an error.
 *
 *   help
 *   balance [customer]
 *   signals [kind] [customer]
 *   ticket <TKT-YY-#####>
 *   tickets [open|new|acknowledged|in_progress|resolved|verified]
 *   fillrate <customer> [days | from to] [department]
 *   digest subscribe|list|unsubscribe|pause|resume|preview ...   (the rest is read by digests/args.ts)
 */
import { isIsoDay } from '../../shared/dates.ts';
import { parseTicketNumber } from '../../shared/reports/lookup.ts';
import { SIGNAL_KINDS } from '../../shared/schemas/inventory.ts';

export const TICKET_FILTERS = ['open', 'new', 'acknowledged', 'in_progress', 'resolved', 'verified'] as const;
export type TicketFilter = (typeof TICKET_FILTERS)[number];

export type FillRateWindow = { days: number } | { from: string; to: string };

export const MAX_FILL_RATE_DAYS = 366;
export const DEFAULT_FILL_RATE_DAYS = 7;

export type Command =
  | { kind: 'help' }
  | { kind: 'balance'; customer?: string | undefined }
  | { kind: 'signals'; signalKind?: string | undefined; customer?: string | undefined }
  | { kind: 'ticket'; number: string }
  | { kind: 'tickets'; status: TicketFilter }
  | { kind: 'fillrate'; customer: string; window: FillRateWindow; department?: string | undefined }
  /** Scheduled channel digests: the words after `digest`, as typed. */
  | { kind: 'digest'; args: string }
  /** The subcommand was recognised but its arguments were not: answer its usage with the problem. */
  | { kind: 'usage'; subcommand: Subcommand; problem: string }
  /** An unknown subcommand: answer the help, naming what was typed. */
  | { kind: 'unknown'; typed: string };

export const SUBCOMMANDS = ['help', 'balance', 'signals', 'ticket', 'tickets', 'fillrate', 'digest'] as const;
export type Subcommand = (typeof SUBCOMMANDS)[number];

const ALIASES: Record<string, Subcommand> = {
  help: 'help',
  '?': 'help',
  balance: 'balance',
  balances: 'balance',
  ar: 'balance',
  signals: 'signals',
  signal: 'signals',
  ticket: 'ticket',
  tickets: 'tickets',
  fillrate: 'fillrate',
  'fill-rate': 'fillrate',
  fill_rate: 'fillrate',
  digest: 'digest',
  digests: 'digest',
};

interface Token {
  text: string;
  quoted: boolean;
}

function tokenizeRich(text: string): Token[] {
  const out: Token[] = [];
  const re = /["“”]([^"“”]*)["“”]?|(\S+)/g;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    const tok = (m[1] ?? m[2] ?? '').trim().replace(/\s+/g, ' ');
    if (tok !== '') out.push({ text: tok, quoted: m[1] !== undefined });
  }
  return out;
}

const isKnownKind = (s: string) => (SIGNAL_KINDS as readonly string[]).includes(s);
/** The kind list is open: a snake_case word with an underscore is taken as a kind too (`par_drift`). */
const looksLikeKind = (s: string) => isKnownKind(s) || /^[a-z]+(?:_[a-z]+)+$/.test(s);

function parseTickets(args: string[]): Command {
  if (args.length === 0) return { kind: 'tickets', status: 'open' };
  const s = args.join('_').toLowerCase().replace(/-/g, '_');
  if ((TICKET_FILTERS as readonly string[]).includes(s)) return { kind: 'tickets', status: s as TicketFilter };
  return {
    kind: 'usage',
    subcommand: 'tickets',
    problem: `"${args.join(' ')}" is not a ticket status; use one of ${TICKET_FILTERS.join(', ')}.`,
  };
}

function parseFillRate(rich: Token[]): Command {
  const tokens = rich.map((t) => t.text);
  if (tokens.length === 0) return { kind: 'usage', subcommand: 'fillrate', problem: 'Give a customer name or id.' };
  const isWindowToken = (t: string) => /^\d+$/.test(t) || /^\d{4}-\d{2}-\d{2}$/.test(t);
  let i = tokens.findIndex(isWindowToken);
  let customerTokens: string[];
  let rest: string[];
  if (i === 0) return { kind: 'usage', subcommand: 'fillrate', problem: 'Give the customer first, then the window.' };
  if (i < 0) {
    // No window: a quoted customer may be followed by a department; otherwise everything is the customer.
    const split = rich[0]!.quoted && tokens.length > 1;
    customerTokens = split ? [tokens[0]!] : tokens;
    rest = split ? tokens.slice(1) : [];
    return {
      kind: 'fillrate',
      customer: customerTokens.join(' '),
      window: { days: DEFAULT_FILL_RATE_DAYS },
      department: rest.length ? rest.join(' ') : undefined,
    };
  }
  customerTokens = tokens.slice(0, i);
  const first = tokens[i]!;
  let window: FillRateWindow;
  if (/^\d+$/.test(first)) {
    const days = Number(first);
    if (days < 1 || days > MAX_FILL_RATE_DAYS) {
      return {
        kind: 'usage',
        subcommand: 'fillrate',
        problem: `The window is 1 to ${MAX_FILL_RATE_DAYS} days (got ${first}).`,
      };
    }
    window = { days };
    i += 1;
  } else {
    const second = tokens[i + 1];
    if (!isIsoDay(first))
      return { kind: 'usage', subcommand: 'fillrate', problem: `${first} is not a calendar day (YYYY-MM-DD).` };
    if (second === undefined || !/^\d{4}-\d{2}-\d{2}$/.test(second)) {
      return {
        kind: 'usage',
        subcommand: 'fillrate',
        problem: 'Give both days of the window: from and to (YYYY-MM-DD YYYY-MM-DD).',
      };
    }
    if (!isIsoDay(second))
      return { kind: 'usage', subcommand: 'fillrate', problem: `${second} is not a calendar day (YYYY-MM-DD).` };
    if (first > second)
      return {
        kind: 'usage',
        subcommand: 'fillrate',
        problem: `The window starts after it ends (${first} > ${second}).`,
      };
    window = { from: first, to: second };
    i += 2;
  }
  rest = tokens.slice(i);
  return {
    kind: 'fillrate',
    customer: customerTokens.join(' '),
    window,
    department: rest.length ? rest.join(' ') : undefined,
  };
}

export function parseCommand(text: string | null | undefined): Command {
  const rich = tokenizeRich(String(text ?? ''));
  const tokens = rich.map((t) => t.text);
  const head = tokens[0];
  if (head === undefined) return { kind: 'help' };
  const sub = ALIASES[head.toLowerCase()];
  const args = tokens.slice(1);
  switch (sub) {
    case 'help':
      return { kind: 'help' };
    case 'balance':
      return { kind: 'balance', customer: args.length ? args.join(' ') : undefined };
    case 'signals': {
      const first = args[0];
      if (first !== undefined && looksLikeKind(first.toLowerCase())) {
        return {
          kind: 'signals',
          signalKind: first.toLowerCase(),
          customer: args.length > 1 ? args.slice(1).join(' ') : undefined,
        };
      }
      return { kind: 'signals', customer: args.length ? args.join(' ') : undefined };
    }
    case 'ticket': {
      if (args.length !== 1)
        return { kind: 'usage', subcommand: 'ticket', problem: 'Give one ticket number, like TKT-26-00417.' };
      try {
        return { kind: 'ticket', number: parseTicketNumber(args[0]!).number };
      } catch {
        return {
          kind: 'usage',
          subcommand: 'ticket',
          problem: `"${args[0]}" is not a ticket number like TKT-26-00417.`,
        };
      }
    }
    case 'tickets':
      return parseTickets(args);
    case 'fillrate':
      return parseFillRate(rich.slice(1));
    case 'digest':
      // Quotes and Slack's <#C123|name> links are the digest parser's to read: keep the text as typed.
      return {
        kind: 'digest',
        args: String(text ?? '')
          .trim()
          .replace(/^\S+\s*/, ''),
      };
    default:
      return { kind: 'unknown', typed: head };
  }
}

const q = (s: string) => (/\s/.test(s) ? `"${s}"` : s);

/** The canonical text of a command (what a "Share" or "choose" button replays). */
export function formatCommand(c: Command): string {
  switch (c.kind) {
    case 'help':
    case 'unknown':
      return 'help';
    case 'usage':
      return `help ${c.subcommand}`.trim();
    case 'balance':
      return c.customer ? `balance ${c.customer}` : 'balance';
    case 'signals':
      return ['signals', c.signalKind, c.customer].filter(Boolean).join(' ');
    case 'ticket':
      return `ticket ${c.number}`;
    case 'tickets':
      return c.status === 'open' ? 'tickets' : `tickets ${c.status}`;
    case 'digest':
      return `digest ${c.args}`.trim();
    case 'fillrate': {
      const w = 'days' in c.window ? String(c.window.days) : `${c.window.from} ${c.window.to}`;
      return ['fillrate', q(c.customer), w, c.department ? q(c.department) : undefined].filter(Boolean).join(' ');
    }
  }
}

/** The same command with another customer (an id chosen from a list of matches). */
export function withCustomer(c: Command, customer: string): Command {
  if (c.kind === 'balance' || c.kind === 'signals' || c.kind === 'fillrate') return { ...c, customer };
  return c;
}
