/**
 * The `/linen` grammar: command text in, a typed command out. No I/O; every path is a value, so bad input
 * becomes a `usage` command that answers with the subcommand's help instead of an error.
 *
 *   help
 *   balance [customer]
 *   invoices [customer] [overdue]
 *   po [customer]
 *   signals [kind | shortfall] [customer]
 *   short [customer] [department | unit]
 *   ticket <TKT-YY-#####>
 *   tickets [customer] [open|new|acknowledged|in_progress|resolved|verified]
 *   fillrate <customer> [days | from to] [department]
 *   rewash <customer> [days | from to]
 *   manifest <MAN-YY-######> [customer]
 *   order <DS-YY-#####>
 *   digest subscribe|list|unsubscribe|pause|resume|preview ...   (the rest is read by chat/digests/subscribe-args.ts)
 */
import { isIsoDay } from '../../shared/dates.ts';
import {
  MANIFEST_NUMBER,
  type NumberFormat,
  ORDER_NUMBER,
  parseDisplayNumber,
  parseTicketNumber,
} from '../../shared/reports/lookup.ts';
import { isShortfallWord } from '../../shared/reports/signals.ts';
import { SIGNAL_KINDS } from '../../shared/schemas/inventory.ts';

export const TICKET_FILTERS = ['open', 'new', 'acknowledged', 'in_progress', 'resolved', 'verified'] as const;
export type TicketFilter = (typeof TICKET_FILTERS)[number];

export type FillRateWindow = { days: number } | { from: string; to: string };

export const MAX_FILL_RATE_DAYS = 366;
export const DEFAULT_FILL_RATE_DAYS = 7;
export const DEFAULT_REWASH_DAYS = 30;

export type Command =
  | { kind: 'help' }
  | { kind: 'balance'; customer?: string | undefined }
  | { kind: 'signals'; signalKind?: string | undefined; customer?: string | undefined }
  | { kind: 'ticket'; number: string }
  | { kind: 'tickets'; status: TicketFilter; customer?: string | undefined }
  | { kind: 'fillrate'; customer: string; window: FillRateWindow; department?: string | undefined }
  /** `customer` as typed; `place` only when the customer was quoted (otherwise the answer splits the words). */
  | { kind: 'short'; customer?: string | undefined; place?: string | undefined }
  | { kind: 'rewash'; customer: string; window: FillRateWindow }
  | { kind: 'manifest'; number: string; customer?: string | undefined }
  | { kind: 'order'; number: string }
  | { kind: 'po'; customer?: string | undefined }
  | { kind: 'invoices'; customer?: string | undefined; overdue: boolean }
  /** Scheduled channel digests: the words after `digest`, as typed. */
  | { kind: 'digest'; args: string }
  /** The subcommand was recognised but its arguments were not: answer its usage with the problem. */
  | { kind: 'usage'; subcommand: Subcommand; problem: string }
  /** An unknown subcommand: answer the help, naming what was typed. */
  | { kind: 'unknown'; typed: string };

export const SUBCOMMANDS = [
  'help',
  'balance',
  'invoices',
  'po',
  'signals',
  'short',
  'ticket',
  'tickets',
  'fillrate',
  'rewash',
  'manifest',
  'order',
  'digest',
] as const;
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
  parmet: 'fillrate',
  short: 'short',
  shortages: 'short',
  rewash: 'rewash',
  manifest: 'manifest',
  pod: 'manifest',
  order: 'order',
  po: 'po',
  pos: 'po',
  budgets: 'po',
  invoices: 'invoices',
  invoice: 'invoices',
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
/**
 * The kind list is open: a snake_case word with an underscore is taken as a kind too (`par_drift`), and
 * `shortfall` stands for the shortfall kinds.
 */
export const looksLikeKind = (s: string) => isKnownKind(s) || isShortfallWord(s) || /^[a-z]+(?:_[a-z]+)+$/.test(s);

const ticketFilter = (words: readonly string[]): TicketFilter | undefined => {
  const s = words.join('_').toLowerCase().replace(/-/g, '_');
  return (TICKET_FILTERS as readonly string[]).includes(s) ? (s as TicketFilter) : undefined;
};

/** `tickets [customer] [status]`: a status is the last word or two (`in progress`); the words before, the customer. */
function parseTickets(args: string[]): Command {
  for (const n of [2, 1]) {
    if (args.length < n) continue;
    const status = ticketFilter(args.slice(-n));
    if (status) {
      const rest = args.slice(0, -n);
      return { kind: 'tickets', status, customer: rest.length ? rest.join(' ') : undefined };
    }
  }
  return { kind: 'tickets', status: 'open', customer: args.length ? args.join(' ') : undefined };
}

/** A display-number argument (`manifest MAN-26-027570`, `order DS-26-01234`), normalized. */
function parseNumberArg(
  sub: 'manifest' | 'order',
  args: string[],
  format: NumberFormat,
): { number: string; rest: string[] } | Command {
  if (args.length === 0)
    return { kind: 'usage', subcommand: sub, problem: `Give ${format.what}, like ${format.example}.` };
  try {
    return { number: parseDisplayNumber(args[0]!, format).number, rest: args.slice(1) };
  } catch {
    return { kind: 'usage', subcommand: sub, problem: `"${args[0]}" is not ${format.what} like ${format.example}.` };
  }
}

/** `short [customer] [place]`: a quoted customer may be followed by a department or unit. */
function parseShort(rich: Token[]): Command {
  const tokens = rich.map((t) => t.text);
  if (tokens.length === 0) return { kind: 'short' };
  if (rich[0]!.quoted && tokens.length > 1)
    return { kind: 'short', customer: tokens[0], place: tokens.slice(1).join(' ') };
  return { kind: 'short', customer: tokens.join(' ') };
}

/** `rewash <customer> [days | from to]`: the fill-rate window grammar, without a department. */
function parseRewash(rich: Token[]): Command {
  const parsed = parseFillRate(rich, 'rewash', DEFAULT_REWASH_DAYS);
  if (parsed.kind !== 'fillrate') return parsed;
  if (parsed.department !== undefined)
    return {
      kind: 'usage',
      subcommand: 'rewash',
      problem: 'Give the customer, then the window (days, or from and to).',
    };
  return { kind: 'rewash', customer: parsed.customer, window: parsed.window };
}

function parseFillRate(
  rich: Token[],
  subcommand: 'fillrate' | 'rewash' = 'fillrate',
  defaultDays = DEFAULT_FILL_RATE_DAYS,
): Command {
  const tokens = rich.map((t) => t.text);
  if (tokens.length === 0) return { kind: 'usage', subcommand, problem: 'Give a customer name or id.' };
  const isWindowToken = (t: string) => /^\d+$/.test(t) || /^\d{4}-\d{2}-\d{2}$/.test(t);
  let i = tokens.findIndex(isWindowToken);
  let customerTokens: string[];
  let rest: string[];
  if (i === 0) return { kind: 'usage', subcommand, problem: 'Give the customer first, then the window.' };
  if (i < 0) {
    // No window: a quoted customer may be followed by a department; otherwise everything is the customer.
    const split = rich[0]!.quoted && tokens.length > 1;
    customerTokens = split ? [tokens[0]!] : tokens;
    rest = split ? tokens.slice(1) : [];
    return {
      kind: 'fillrate',
      customer: customerTokens.join(' '),
      window: { days: defaultDays },
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
        subcommand,
        problem: `The window is 1 to ${MAX_FILL_RATE_DAYS} days (got ${first}).`,
      };
    }
    window = { days };
    i += 1;
  } else {
    const second = tokens[i + 1];
    if (!isIsoDay(first)) return { kind: 'usage', subcommand, problem: `${first} is not a calendar day (YYYY-MM-DD).` };
    if (second === undefined || !/^\d{4}-\d{2}-\d{2}$/.test(second)) {
      return {
        kind: 'usage',
        subcommand,
        problem: 'Give both days of the window: from and to (YYYY-MM-DD YYYY-MM-DD).',
      };
    }
    if (!isIsoDay(second))
      return { kind: 'usage', subcommand, problem: `${second} is not a calendar day (YYYY-MM-DD).` };
    if (first > second)
      return {
        kind: 'usage',
        subcommand,
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
    case 'short':
      return parseShort(rich.slice(1));
    case 'rewash':
      return parseRewash(rich.slice(1));
    case 'manifest': {
      const n = parseNumberArg('manifest', args, MANIFEST_NUMBER);
      if ('kind' in n) return n;
      return { kind: 'manifest', number: n.number, customer: n.rest.length ? n.rest.join(' ') : undefined };
    }
    case 'order': {
      const n = parseNumberArg('order', args, ORDER_NUMBER);
      if ('kind' in n) return n;
      if (n.rest.length) return { kind: 'usage', subcommand: 'order', problem: 'Give one order number.' };
      return { kind: 'order', number: n.number };
    }
    case 'po':
      return { kind: 'po', customer: args.length ? args.join(' ') : undefined };
    case 'invoices': {
      const overdue = args.length > 0 && args[args.length - 1]!.toLowerCase() === 'overdue';
      const rest = overdue ? args.slice(0, -1) : args;
      return { kind: 'invoices', customer: rest.length ? rest.join(' ') : undefined, overdue };
    }
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

/** A name as one token: quoted when it has spaces; quote marks inside it cannot be typed, so they are left out. */
const q = (s: string) => {
  const t = s.replace(/["“”]/g, '');
  return /\s/.test(t) ? `"${t}"` : t;
};

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
      return [
        'tickets',
        c.customer ? q(c.customer) : undefined,
        c.status === 'open' && !c.customer ? undefined : c.status,
      ]
        .filter(Boolean)
        .join(' ');
    case 'short':
      return c.place !== undefined ? `short "${c.customer}" ${c.place}` : c.customer ? `short ${c.customer}` : 'short';
    case 'rewash': {
      const w = 'days' in c.window ? String(c.window.days) : `${c.window.from} ${c.window.to}`;
      return `rewash ${q(c.customer)} ${w}`;
    }
    case 'manifest':
      return c.customer ? `manifest ${c.number} ${c.customer}` : `manifest ${c.number}`;
    case 'order':
      return `order ${c.number}`;
    case 'po':
      return c.customer ? `po ${c.customer}` : 'po';
    case 'invoices':
      return ['invoices', c.customer, c.overdue ? 'overdue' : undefined].filter(Boolean).join(' ');
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
  switch (c.kind) {
    case 'balance':
    case 'signals':
    case 'fillrate':
    case 'tickets':
    case 'short':
    case 'rewash':
    case 'manifest':
    case 'po':
    case 'invoices':
      return { ...c, customer };
    default:
      return c;
  }
}
