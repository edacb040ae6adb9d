/**
 * `alert <kind> ...`, `alerts` (`alert list`), `alert remove|pause|resume|test <id>`: setting and managing alerts,
 * the same words on every platform. Every answer is for the person who typed it; the alerts themselves are posted
 * for everyone in their conversation (or to the person, with `dm`).
 *
 * Setting one reads what is true right now with the key of the conversation it posts in, records it as seen (so the
 * first check is quiet about the past) and says how many things are true now; bad input is one sentence and nothing
 * is saved, and so is a key that cannot read what the alert needs.
 */

import { InvalidParamsError, NotFoundError } from '../../shared/errors.ts';
import { type Customer, type LinenClient, LinenError, resolveCustomerFrom } from '../../shared/index.ts';
import type { AccessClass } from '../access-class.ts';
import { type Content, note, text } from '../content/document.ts';
import { when } from '../content/format.ts';
import { CONTENT_LIMITS, truncateRich } from '../content/limits.ts';
import { b, channel, code, command, joinRich, line, type Rich, r } from '../content/rich.ts';
import type { Clock } from '../digests/clock.ts';
import type { ChannelKey, DigestChannels } from '../digests/digest-answers.ts';
import type { Platform } from '../digests/storage/types.ts';
import { channelOf } from '../digests/subscribe-args.ts';
import { listedLines } from '../views/common.ts';
import { checkTimeOf } from './check.ts';
import type { AlertKind, AlertScope, Token } from './kind.ts';
import { ALERT_KINDS, alertKindByWord } from './kinds/index.ts';
import { alertReads } from './reads.ts';
import type { AlertStore } from './storage/store.ts';
import type { Alert } from './storage/types.ts';

/** The kinds the command offers (a test adds its own). */
export interface AlertKindList {
  all: readonly AlertKind[];
  byWord(word: string): AlertKind | undefined;
}

// Read when asked, not when this module loads: the kinds and the command registry import each other's modules.
export const ALERT_KIND_LIST: AlertKindList = {
  get all() {
    return ALERT_KINDS;
  },
  byWord: (word) => alertKindByWord(word),
};

/** What an alert command needs of the place it is typed in. */
export interface AlertCommandContext {
  platform: Platform;
  userId: string;
  channelId: string;
  channelName?: string | null | undefined;
  serviceUrl?: string | null | undefined;
  orgId?: string | null | undefined;
  /** A direct conversation between the person and the bot. */
  privateChat: boolean;
  store: AlertStore;
  channels: DigestChannels;
  /** The client of the key of the conversation typed in. */
  linen: LinenClient;
  keyRef: string;
  /** Key references the worker can check with (default: `[keyRef]`). */
  keyRefs?: readonly string[] | undefined;
  timeZone: string;
  clock: Clock;
  /** How often keys are checked (ALERTS_POLL_SECONDS). */
  pollMs: number;
  kinds?: AlertKindList | undefined;
  /** Null when an answer of this access class may be posted in the conversation; otherwise why not. */
  refuse?: ((access: AccessClass, channelId: string, privateChat: boolean) => Rich | null) | undefined;
  /** The key bound to the conversation an alert posts in (installed workspaces bind keys per channel). */
  keyForChannel?: ((channelId: string) => Promise<ChannelKey | Rich>) | undefined;
  /** Who alone may manage alerts (Slack's LINEN_ADMIN_USER_IDS); none: anyone. */
  adminUserIds?: readonly string[] | undefined;
  /** Asks the worker to deliver now (a test post). */
  wake?: (() => void) | undefined;
}

const reply = (...pieces: Rich[]): Content => {
  const t = joinRich(pieces, '');
  return { summary: t, parts: [text(truncateRich(t, CONTENT_LIMITS.text))] };
};

/** `alert short [customer] [department | unit] [min N]`… and the management words, for help and for bad input. */
export function alertUsage(kinds: AlertKindList = ALERT_KIND_LIST): Rich {
  return joinRich(
    [
      ...kinds.all.map((k) => r`${command(k.help.usage)} ${k.help.description}`),
      r`Add ${code('#channel')} to post in another channel, or ${code('dm')} to be told privately. ${command('alerts')} lists them; ${command('alert remove <id>')} · ${command('alert pause <id>')} · ${command('alert resume <id>')} · ${command('alert test <id>')}`,
    ],
    '\n',
  );
}

const KEY_GONE =
  'was set up with a Linen API key that is no longer configured; remove it and set it again with the current key';

/** Where an alert posts, in words. */
const whereOf = (a: Pick<Alert, 'direct' | 'channelId' | 'channelName'>): Rich =>
  a.direct ? ['your direct messages with Linen'] : [channel(a.channelId, a.channelName)];

const scopeOf = (a: Alert): AlertScope<unknown> => ({
  options: a.options,
  customerIds: a.customerIds,
  timeZone: a.timeZone,
});

async function namesOf(linen: LinenClient): Promise<Map<string, string>> {
  const customers = await linen.customers.list().all();
  return new Map(customers.map((c) => [c.id, c.name]));
}

/** An alert as `alerts` lists it: its id, what it watches, where it posts, when it last fired, its state. */
export function describeAlert(
  a: Alert,
  kinds: AlertKindList,
  names: ReadonlyMap<string, string>,
  keyGone: boolean,
): Rich {
  const kind = kinds.all.find((k) => k.name === a.kind);
  const watches = kind ? kind.describe(scopeOf(a), names) : `${a.kind} (a kind this version does not know)`;
  const status: Rich =
    a.status === 'active'
      ? []
      : a.status === 'paused'
        ? [' · ', b('paused')]
        : [' · ', b('failing'), `: ${a.failureReason ?? ''}`];
  const fired: Rich = a.lastFiredAt
    ? [` · last fired ${when(a.lastFiredAt.toISOString(), a.timeZone)}`]
    : [' · not fired yet'];
  const gone: Rich = keyGone ? [' · ', b(KEY_GONE)] : [];
  return r`${code(a.id)} ${line(watches)}, in ${whereOf(a)}${fired}${status}${gone}`;
}

/** A customer name or id typed after the kind's options, against what the key sees; or why not. */
async function customerOf(linen: LinenClient, typed: string): Promise<{ customer: Customer } | { problem: string }> {
  const customers = await linen.customers.list().all();
  try {
    return { customer: resolveCustomerFrom(typed, customers) };
  } catch (err) {
    if (!(err instanceof NotFoundError) && !(err instanceof InvalidParamsError)) throw err;
    return {
      problem: err instanceof LinenError ? err.userMessage : `No customer named “${typed}” is visible to this key.`,
    };
  }
}

/**
 * The customer and place of a kind that takes one, typed without quotes (`Mercy General Hospital ICU`): the longest
 * run of leading words naming one customer is the customer, the rest the place.
 */
async function customerAndPlace(
  linen: LinenClient,
  typed: string,
): Promise<{ customer: Customer; place?: string | undefined } | { problem: string }> {
  const whole = await customerOf(linen, typed);
  if ('customer' in whole) return whole;
  const customers = await linen.customers.list().all();
  const words = typed.split(/\s+/);
  for (let n = words.length - 1; n >= 1; n--) {
    try {
      return { customer: resolveCustomerFrom(words.slice(0, n).join(' '), customers), place: words.slice(n).join(' ') };
    } catch (err) {
      if (!(err instanceof NotFoundError) && !(err instanceof InvalidParamsError)) throw err;
    }
  }
  return whole;
}

/** The words of `alert <kind> …` split into where it posts (`#channel`, `dm`) and the kind's own words. */
function destinationOf(tokens: readonly Token[]): {
  words: Token[];
  direct: boolean;
  channel: ReturnType<typeof channelOf>;
} {
  let direct = false;
  let channelArg: ReturnType<typeof channelOf> = null;
  const words: Token[] = [];
  for (const t of tokens) {
    if (!t.quoted && t.text.toLowerCase() === 'dm') direct = true;
    else if (!t.quoted && channelOf(t.text)) channelArg = channelOf(t.text);
    else words.push(t);
  }
  return { words, direct, channel: channelArg };
}

function isManager(ctx: AlertCommandContext): boolean {
  const admins = (ctx.adminUserIds ?? []).map((s) => s.trim()).filter(Boolean);
  return admins.length === 0 || admins.includes(ctx.userId);
}

async function findOwned(ctx: AlertCommandContext, id: string | undefined): Promise<Alert | Rich> {
  if (!id) return r`Give the alert's id; ${command('alerts')} lists them.`;
  const a = await ctx.store.getAlert(id.trim());
  if (!a || a.platform !== ctx.platform || (ctx.orgId && a.orgId && a.orgId !== ctx.orgId))
    return r`There is no alert ${code(id)}; ${command('alerts')} lists them.`;
  return a;
}

const isAlert = (x: Alert | Rich): x is Alert => !Array.isArray(x);

/** What is true now for an alert, read with its key (interactive budgets: a person is waiting). */
async function trueNow(
  kind: AlertKind,
  a: Pick<Alert, 'options' | 'customerIds' | 'timeZone'>,
  linen: LinenClient,
  now: Date,
) {
  const time = checkTimeOf(now, a.timeZone);
  const found = await kind.occurrences(
    { options: a.options, customerIds: a.customerIds, timeZone: a.timeZone },
    alertReads(linen, { now }),
    time,
    new Set(),
  );
  return { found, time };
}

async function setAlert(words: readonly Token[], ctx: AlertCommandContext, kinds: AlertKindList): Promise<Content> {
  const [first, ...rest] = words;
  const kind = first && !first.quoted ? kinds.byWord(first.text) : undefined;
  if (!kind) {
    const names = kinds.all.map((k) => k.name).join(', ');
    return reply(
      first ? [`I don't know an alert “${line(first.text)}”; alerts are ${names}.\n`] : [`Alerts are ${names}.\n`],
      alertUsage(kinds),
    );
  }
  const dest = destinationOf(rest);
  const parsed = kind.parse(dest.words);
  if ('problem' in parsed) return reply([`${parsed.problem} `, command(kind.help.usage)]);
  // Where it posts: here, another channel, or the person's direct conversation with the bot.
  let channelId = ctx.channelId;
  let channelName = ctx.channelName ?? null;
  if (dest.direct) {
    if (!ctx.channels.direct) return reply(['Alerts cannot be sent privately here.']);
    const found = await ctx.channels.direct(ctx.userId);
    if ('problem' in found) return reply(found.problem);
    channelId = found.id;
    channelName = null;
  } else if (dest.channel) {
    const found = await ctx.channels.resolve(dest.channel);
    if ('problem' in found) return reply(found.problem);
    channelId = found.id;
    channelName = null;
  }
  const privateChat = dest.direct || (channelId === ctx.channelId && ctx.privateChat);
  const refused = ctx.refuse?.(kind.access, channelId, privateChat);
  if (refused) return reply(refused);
  const bound = ctx.keyForChannel
    ? await ctx.keyForChannel(channelId)
    : { linen: ctx.linen, keyRef: ctx.keyRef, timeZone: ctx.timeZone };
  if (Array.isArray(bound)) return reply(bound);
  const key = bound as ChannelKey;
  let customer: Customer | undefined;
  let place = parsed.place;
  if (parsed.customer !== undefined) {
    const takesPlace = kind.resolve !== undefined && place === undefined;
    const found: { customer: Customer; place?: string | undefined } | { problem: string } = takesPlace
      ? await customerAndPlace(key.linen, parsed.customer)
      : await customerOf(key.linen, parsed.customer);
    if ('problem' in found) return reply([found.problem]);
    customer = found.customer;
    place = found.place ?? place;
  }
  const now = ctx.clock.now();
  const reads = alertReads(key.linen, { now });
  let options = parsed.options;
  if (kind.resolve) {
    const resolved = await kind.resolve({ ...parsed, place }, customer, reads);
    if (resolved && typeof resolved === 'object' && 'problem' in (resolved as object))
      return reply([(resolved as { problem: string }).problem]);
    options = resolved;
  } else if (place !== undefined) {
    return reply([`A ${kind.name} alert takes no department or unit; leave “${line(place)}” out.`]);
  }
  // A person's direct conversation with the bot always takes its posts.
  const problem = dest.direct ? null : await ctx.channels.canPost(channelId);
  if (problem) return reply(problem);
  const draft = { options, customerIds: customer ? [customer.id] : [], timeZone: key.timeZone };
  // What is true now is recorded as seen: the first check tells only what becomes true after this.
  const { found, time } = await trueNow(kind, draft, key.linen, now);
  const created = await ctx.store.createAlert(
    {
      platform: ctx.platform,
      orgId: ctx.orgId ?? null,
      keyRef: key.keyRef,
      kind: kind.name,
      options,
      customerIds: draft.customerIds,
      timeZone: key.timeZone,
      channelId,
      channelName: channelId === ctx.channelId ? channelName : null,
      serviceUrl: ctx.serviceUrl ?? null,
      direct: dest.direct,
      createdBy: ctx.userId,
      seen: [...new Set(found.map((o) => o.id))],
      lastDay: kind.cadence === 'daily' ? time.yesterday : null,
    },
    now,
    new Date(now.getTime() + ctx.pollMs),
  );
  const names = await namesOf(key.linen);
  // Whole minutes as minutes; anything else (30 s, 90 s) in seconds, never rounded to a minute it is not.
  const minutes = ctx.pollMs / 60_000;
  const every = Number.isInteger(minutes)
    ? `${minutes} minute${minutes === 1 ? '' : 's'}`
    : `${Math.round(ctx.pollMs / 1000)} seconds`;
  const checked = kind.cadence === 'daily' ? 'once a day, once the day is over' : `every ${every}`;
  return {
    summary: r`Alert ${code(created.id)} set: ${line(kind.describe(scopeOf(created), names))}.`,
    parts: [
      text(
        r`${b('Alert set')} ${code(created.id)}: ${line(kind.describe(scopeOf(created), names))}. It posts in ${whereOf(created)} when that happens, checked ${checked}.`,
      ),
      text(kind.nowLine(scopeOf(created), found.length, names)),
      note(
        r`${command(`alert test ${created.id}`)} posts what it would say now; ${command(`alert remove ${created.id}`)} stops it.`,
      ),
    ],
  };
}

async function list(ctx: AlertCommandContext, kinds: AlertKindList): Promise<Content> {
  const alerts = await ctx.store.listAlerts({ platform: ctx.platform, orgId: ctx.orgId ?? undefined });
  if (!alerts.length) return reply(['No alerts yet.\n'], alertUsage(kinds));
  const names = await namesOf(ctx.linen).catch(() => new Map<string, string>());
  const known = ctx.keyRefs ?? [ctx.keyRef];
  const lines = alerts.map((a): Rich => ['• ', ...describeAlert(a, kinds, names, !known.includes(a.keyRef))]);
  const parts = listedLines(r`${b('Alerts')} (${String(alerts.length)})`, lines, 'alerts');
  return { summary: [`${alerts.length} alerts: ${alerts.map((a) => a.id).join(', ')}`], parts };
}

export type AlertArgs =
  | { action: 'list' }
  | { action: 'help' }
  | { action: 'remove' | 'pause' | 'resume' | 'test'; id: string | undefined }
  | { action: 'set'; words: readonly Token[] };

/** The words after `alert` (or `alerts`). */
export function parseAlertArgs(tokens: readonly Token[]): AlertArgs {
  const [first, ...rest] = tokens;
  const verb = first && !first.quoted ? first.text.toLowerCase() : undefined;
  if (verb === undefined || verb === 'list') return { action: 'list' };
  if (verb === 'help' || verb === '?') return { action: 'help' };
  if (verb === 'remove' || verb === 'delete' || verb === 'pause' || verb === 'resume' || verb === 'test')
    return { action: verb === 'delete' ? 'remove' : verb, id: rest[0]?.text };
  return { action: 'set', words: tokens };
}

/** The canonical text of alert arguments. */
export function formatAlertArgs(a: AlertArgs): string {
  if (a.action === 'list') return 'alerts';
  if (a.action === 'help') return 'alert help';
  if (a.action === 'set') return `alert ${a.words.map((t) => (t.quoted ? `"${t.text}"` : t.text)).join(' ')}`;
  return `alert ${a.action}${a.id ? ` ${a.id}` : ''}`;
}

export async function runAlertCommand(args: AlertArgs, ctx: AlertCommandContext): Promise<Content> {
  const kinds = ctx.kinds ?? ALERT_KIND_LIST;
  try {
    if (args.action === 'list') return await list(ctx, kinds);
    if (args.action === 'help') return reply(r`${b('Alerts')}\n`, alertUsage(kinds));
    if (!isManager(ctx)) return reply(['Only the Linen admins of this workspace can manage alerts; ask one of them.']);
    if (args.action === 'set') return await setAlert(args.words, ctx, kinds);
    const found = await findOwned(ctx, args.id);
    if (!isAlert(found)) return reply(found);
    const now = ctx.clock.now();
    if (args.action === 'remove') {
      await ctx.store.deleteAlert(found.id);
      return reply(r`Removed alert ${code(found.id)}: nothing more is posted in ${whereOf(found)} for it.`);
    }
    if (args.action === 'pause') {
      await ctx.store.setAlertStatus(found.id, 'paused', now);
      return reply(r`Paused alert ${code(found.id)}; ${command(`alert resume ${found.id}`)} starts it again.`);
    }
    const known = ctx.keyRefs ?? [ctx.keyRef];
    if (!known.includes(found.keyRef)) return reply(r`${code(found.id)} ${KEY_GONE}.`);
    const kind = kinds.all.find((k) => k.name === found.kind);
    if (!kind) return reply(r`${code(found.id)} is a ${found.kind} alert, which this version does not know.`);
    const key = ctx.keyForChannel ? await ctx.keyForChannel(found.channelId) : { linen: ctx.linen };
    if (Array.isArray(key)) return reply(key);
    const linen = (key as { linen: LinenClient }).linen;
    const { found: trueThings, time } = await trueNow(kind, found, linen, now);
    const names = await namesOf(linen);
    if (args.action === 'test') {
      await ctx.store.addTestPost(found.id, trueThings, now);
      ctx.wake?.();
      return reply(
        r`Posting a test of ${code(found.id)} in ${whereOf(found)} now: what it would say with what is true right now. `,
        kind.nowLine(scopeOf(found), trueThings.length, names),
      );
    }
    // Resumed: what is true now is recorded as seen, so what became true while paused is not told as news.
    const problem = found.direct ? null : await ctx.channels.canPost(found.channelId);
    if (problem) return reply(problem);
    await ctx.store.setAlertStatus(found.id, 'active', now, {
      seen: [...new Set(trueThings.map((o) => o.id))],
      lastDay: kind.cadence === 'daily' ? time.yesterday : null,
      firstCheckAt: new Date(now.getTime() + ctx.pollMs),
    });
    return reply(
      r`Resumed alert ${code(found.id)}: ${line(kind.describe(scopeOf(found), names))}, in ${whereOf(found)}. `,
      kind.nowLine(scopeOf(found), trueThings.length, names),
    );
  } catch (e) {
    if (e instanceof LinenError) return reply([e.userMessage]);
    throw e;
  }
}
