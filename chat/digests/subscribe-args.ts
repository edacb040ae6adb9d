/**
 * Reading `/linen digest subscribe ...` arguments: the kind, channel, cadence, time, customers and all-clear, and
 * each kind's own option words (a shortfall digest's minimum severity, a budgets digest's `25%` left and `45d` to
 * expiry: `kinds/`), in any order. Throws ArgsError with one sentence for bad input.
 */
import { ArgsError } from './args-error.ts';
import { DIGEST_KINDS, type DigestKinds } from './kinds/index.ts';
import type { OptionSetting } from './kinds/kind.ts';
import { dayName, parseCadence, parseTime, ScheduleError } from './schedule.ts';
import type { DigestKind, DigestOptions, Severity } from './storage/types.ts';

export { ArgsError };

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
  kinds: DigestKinds = DIGEST_KINDS,
): SubscribeArgs {
  // The kind, when given, comes first: `subscribe receivables #finance weekly`.
  const named = tokens[0] && !tokens[0].quoted ? kinds.byWord(tokens[0].text) : null;
  const kind = named ?? kinds.default;
  const out: SubscribeArgs = {
    kind: kind.name,
    options: {},
    channel: null,
    cadence: kind.defaultCadence,
    time: defaults.time,
    customers: [],
    minSeverity: 'low',
    allClear: false,
  };
  let cadence: string | undefined;
  // Each kind's option words as typed, whatever kind is subscribed: another kind's are refused after the loop.
  const optionWords = new Map<string, string[]>();
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
  try {
    for (const { text, quoted } of named ? tokens.slice(1) : tokens) {
      if (quoted) {
        flush();
        out.customers.push(text);
        continue;
      }
      const lower = text.toLowerCase();
      const ch = channelOf(text);
      const parts = lower.split(',').filter(Boolean);
      const option = ch ? null : kindOption(kinds, text);
      if (ch) {
        flush();
        out.channel = ch;
      } else if (/^\d{1,2}:\d+$/.test(text) || /^\d{1,2}(:\d+)?\s*(am|pm)$/i.test(text)) {
        flush();
        out.time = parseTime(text);
      } else if (option) {
        flush();
        if (option.set.minSeverity) out.minSeverity = option.set.minSeverity;
        if (option.set.options) out.options = { ...out.options, ...option.set.options };
        optionWords.set(option.of, [...(optionWords.get(option.of) ?? []), text]);
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
  out.cadence = cadence ?? kind.defaultCadence;
  for (const other of kinds.all) {
    const given = optionWords.get(other.name);
    if (given && other !== kind) throw new ArgsError(other.options!.notFor(given, kind.name));
  }
  return out;
}

/** The first kind (in the registry's order) whose option words `word` is one of, and what it sets. */
function kindOption(kinds: DigestKinds, word: string): { of: string; set: OptionSetting } | null {
  for (const k of kinds.all) {
    const set = k.options?.read(word);
    if (set) return { of: k.name, set };
  }
  return null;
}
