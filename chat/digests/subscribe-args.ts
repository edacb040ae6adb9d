/**
 * Reading `/linen digest subscribe ...` arguments: the kind, channel, cadence, time, customers, minimum severity
 * and the budget thresholds (`25%` left, expiring within `45d`), in any order. Throws ArgsError with one sentence
 * for bad input.
 */
import { DEFAULT_CADENCE, digestKind } from './kinds.ts';
import { dayName, parseCadence, parseTime, ScheduleError } from './schedule.ts';
import type { DigestKind, DigestOptions, Severity } from './storage/types.ts';

export class ArgsError extends Error {
  override name = 'ArgsError';
}

/** Words, with `"quoted names"` kept whole (quoted ones flagged). */
export function tokenize(input: string | readonly string[]): { text: string; quoted: boolean }[] {
  if (typeof input !== 'string') return input.map((t) => ({ text: t, quoted: /\s/.test(t) }));
  const out: { text: string; quoted: boolean }[] = [];
  const re = /"([^"]*)"|“([^”]*)”|(\S+)/g;
  for (let m = re.exec(input); m; m = re.exec(input)) {
    if (m[3] !== undefined) out.push({ text: m[3], quoted: false });
    else out.push({ text: (m[1] ?? m[2] ?? '').trim(), quoted: true });
  }
  return out.filter((t) => t.text !== '');
}

export interface SubscribeArgs {
  kind: DigestKind;
  options: DigestOptions;
  channel: ChannelArg | null;
  cadence: string;
  time: string;
  customers: string[];
  minSeverity: Severity;
  allClear: boolean;
}

const SEVERITIES = new Set(['low', 'medium', 'high']);

/** A channel as typed: Slack's link form or an id carry the id; a bare `#name` still has to be looked up. */
export type ChannelArg = { id: string } | { name: string };

/** `<#C123|name>`, `<#C123>`, a bare channel id (`C…`, `G…`), or `#name` (resolved later with conversations.list). */
export function channelOf(token: string): ChannelArg | null {
  const link = /^<#([A-Z0-9]+)(\|[^>]*)?>$/.exec(token);
  if (link) return { id: link[1]! };
  if (/^[CG][A-Z0-9]{6,}$/.test(token)) return { id: token };
  const named = /^#([a-z0-9][a-z0-9._-]{0,79})$/i.exec(token);
  if (named) return { name: named[1]!.toLowerCase() };
  if (token.startsWith('#'))
    throw new ArgsError(
      `"${token}" is not a channel name; Slack channel names use lowercase letters, digits, - and _.`,
    );
  return null;
}

export function parseSubscribeArgs(
  tokens: readonly { text: string; quoted: boolean }[],
  defaults: { time: string },
): SubscribeArgs {
  const out: SubscribeArgs = {
    kind: 'shortfall',
    options: {},
    channel: null,
    cadence: 'daily',
    time: defaults.time,
    customers: [],
    minSeverity: 'low',
    allClear: false,
  };
  let cadence: string | undefined;
  let severity: string | undefined;
  const words: string[] = [];
  const flush = () => {
    if (words.length)
      out.customers.push(
        ...words
          .join(' ')
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean),
      );
    words.length = 0;
  };
  // The kind, when given, comes first: `subscribe receivables #finance weekly`.
  const kind = tokens[0] && !tokens[0].quoted ? digestKind(tokens[0].text) : null;
  if (kind) out.kind = kind;
  try {
    for (const { text, quoted } of kind ? tokens.slice(1) : tokens) {
      if (quoted) {
        flush();
        out.customers.push(text);
        continue;
      }
      const lower = text.toLowerCase();
      const share = /^(\d{1,3})%$/.exec(lower);
      const days = /^(\d{1,4})(?:d|days?)$/.exec(lower);
      if (share) {
        const n = Number(share[1]);
        if (n < 1 || n > 100) throw new ArgsError(`${text} is not a share of a budget; give 1% to 100%.`);
        flush();
        out.options.budgetShare = n / 100;
        continue;
      }
      if (days) {
        flush();
        out.options.expiringDays = Number(days[1]);
        continue;
      }
      const ch = channelOf(text);
      const sev = /^(?:min-?severity=|severity=)?(low|medium|high)\+?$/.exec(lower);
      const parts = lower.split(',').filter(Boolean);
      if (ch) {
        flush();
        out.channel = ch;
      } else if (/^\d{1,2}:\d+$/.test(text) || /^\d{1,2}(:\d+)?\s*(am|pm)$/i.test(text)) {
        flush();
        out.time = parseTime(text);
      } else if (sev && SEVERITIES.has(sev[1]!)) {
        flush();
        out.minSeverity = sev[1] as Severity;
        severity = text;
      } else if (lower === 'all-clear' || lower === 'allclear') {
        flush();
        out.allClear = true;
      } else if (
        ['daily', 'weekdays', 'weekends', 'weekly'].includes(lower) ||
        (parts.length > 1 && parts.some((p) => dayName(p) !== null)) ||
        (parts.length === 1 && dayName(parts[0]!) !== null)
      ) {
        flush();
        cadence = parseCadence(lower);
      } else {
        words.push(text);
      }
    }
  } catch (e) {
    if (e instanceof ScheduleError) throw new ArgsError(e.message);
    throw e;
  }
  flush();
  out.cadence = cadence ?? DEFAULT_CADENCE[out.kind];
  if (severity !== undefined && out.kind !== 'shortfall')
    throw new ArgsError(`A severity (${severity}) is for shortfall digests; leave it out of a ${out.kind} digest.`);
  if ((out.options.budgetShare !== undefined || out.options.expiringDays !== undefined) && out.kind !== 'budgets')
    throw new ArgsError(
      `A share left or a number of days is for budgets digests; leave it out of a ${out.kind} digest.`,
    );
  return out;
}
