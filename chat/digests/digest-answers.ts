/**
 * `/linen digest ...`: subscribe, list, unsubscribe, pause, resume and preview. Pure apart from the store, the
 * platform's channels (to find a named channel and check the bot can post there) and the Linen client (to resolve
 * customers, build previews). Every answer is for the person who typed the command.
 */
import { type LinenClient, LinenError } from '../../shared/index.ts';
import { type Content, note, text } from '../content/document.ts';
import { CONTENT_LIMITS, truncateRich } from '../content/limits.ts';
import { b, channel, code, command, i, joinRich, line, type Rich, r } from '../content/rich.ts';
import { listedLines } from '../views/common.ts';
import type { Clock } from './clock.ts';
import { subscribeSyntax } from './kinds/help.ts';
import { DIGEST_KINDS, type DigestKinds } from './kinds/index.ts';
import { digestFor, keySnapshot } from './runner.ts';
import { describeSchedule, formatInstant, nextRuns } from './schedule.ts';
import type { DigestKind, DigestStore, Platform, Subscription } from './storage/types.ts';
import type { ChannelArg } from './subscribe-args.ts';
import { ArgsError, parseSubscribeArgs, tokenize } from './subscribe-args.ts';

/** What a digest command needs of the platform it is typed on. */
export interface DigestChannels {
  /** The channel a subscribe command names (`#finance`), or why it cannot be used. */
  resolve(arg: ChannelArg): Promise<{ id: string } | { problem: Rich }>;
  /** Null when the bot can post in the channel; otherwise why not. */
  canPost(channelId: string): Promise<Rich | null>;
  /** The person's direct conversation with the bot (an alert with `dm`), or why there is none; absent: none here. */
  direct?(userId: string): Promise<{ id: string } | { problem: Rich }>;
}

export interface DigestCommandContext {
  platform: Platform;
  userId: string;
  channelId: string;
  /** The channel's name, where the platform gave it (kept with a subscription for listings). */
  channelName?: string | null | undefined;
  /** Teams: the service URL the conversation is reached through (kept with a subscription). */
  serviceUrl?: string | null | undefined;
  orgId?: string | null;
  store: DigestStore;
  channels: DigestChannels;
  /** The client of the key new subscriptions read with (and previews use). */
  linen: LinenClient;
  /** `keyRefOf` the key behind `linen`: what new subscriptions store. */
  keyRef: string;
  /** Key references the worker can read with (default: `[keyRef]`); others are reported as no longer configured. */
  keyRefs?: readonly string[];
  /** The org timezone (`LINEN_TIMEZONE`). */
  timeZone: string;
  clock: Clock;
  /** Who may manage subscriptions (the bot passes `LINEN_ADMIN_USER_IDS`); absent or empty: anyone. */
  adminUserIds?: readonly string[];
  /** Null when a digest of this kind may appear in the channel; otherwise the sentence refusing it (access rules). */
  refuseKind?: (kind: DigestKind, channelId: string) => Rich | null;
  /** The digest kinds there are (default: the service's). */
  kinds?: DigestKinds;
  /**
   * The key bound to the digest's channel when keys are bound per channel (installed workspaces), or the sentence
   * saying none is; absent: every channel reads with `linen`.
   */
  keyForChannel?: (channelId: string) => Promise<ChannelKey | Rich>;
}

export interface ChannelKey {
  linen: LinenClient;
  keyRef: string;
  timeZone: string;
}

const isChannelKey = (x: ChannelKey | Rich): x is ChannelKey => !Array.isArray(x);

const usage = (kinds: DigestKinds): Rich =>
  r`${command(subscribeSyntax(kinds))}\n${command('digest list')} · ${code('unsubscribe <id>')} · ${code('pause <id>')} · ${code('resume <id>')} · ${code('preview [id | kind]')}`;

const reply = (...pieces: Rich[]): Content => {
  const t = joinRich(pieces, '');
  return { summary: t, parts: [text(truncateRich(t, CONTENT_LIMITS.text))] };
};

/** The message of a subscription whose key is gone: it cannot run or be previewed until subscribed again. */
const KEY_GONE =
  'was set up with a Linen API key that is no longer configured; unsubscribe it and subscribe again with the current key';

function keyKnown(ctx: DigestCommandContext, s: Subscription): boolean {
  return (ctx.keyRefs ?? [ctx.keyRef]).includes(s.keyRef);
}

async function channelIdOf(
  ctx: DigestCommandContext,
  arg: ChannelArg | null,
): Promise<{ id: string } | { problem: Rich }> {
  if (!arg) return { id: ctx.channelId };
  return ctx.channels.resolve(arg);
}

function admins(ctx: DigestCommandContext): string[] {
  return (ctx.adminUserIds ?? []).map((s) => s.trim()).filter(Boolean);
}

const channelOfSub = (s: Subscription) => channel(s.channelId, s.channelName);

/** A subscription as its kind describes it; one of a kind this service does not know is named by its stored kind. */
export function describeSubscription(
  kinds: DigestKinds,
  s: Subscription,
  customerNames?: Map<string, string>,
  keyGone = false,
): Rich {
  const who = s.customerIds.length
    ? s.customerIds.map((id) => line(customerNames?.get(id) ?? id)).join(', ')
    : 'all customers';
  const { kind, settings } = kinds.get(s.kind)?.describe(s) ?? { kind: `${s.kind} digest`, settings: '' };
  const status: Rich =
    s.status === 'active'
      ? []
      : s.status === 'paused'
        ? [' · ', b('paused')]
        : [' · ', b('failing'), `: ${s.failureReason ?? ''}`];
  const gone: Rich = keyGone ? [' · ', b(KEY_GONE)] : [];
  return r`${code(s.id)} ${channelOfSub(s)} ${kind ? `${kind} ` : ''}${describeSchedule(s)}, ${who}${settings}${status}${gone}`;
}

function nextThree(s: Subscription, now: Date): string {
  return nextRuns(s, now, 3)
    .map((d) => formatInstant(d, s.timeZone))
    .join(' · ');
}

async function findOwned(ctx: DigestCommandContext, id: string | undefined): Promise<Subscription | Rich> {
  if (!id) return r`Give the subscription id; ${command('digest list')} shows them.`;
  const sub = await ctx.store.getSubscription(id.trim());
  if (!sub || sub.platform !== ctx.platform || (ctx.orgId && sub.orgId && sub.orgId !== ctx.orgId)) {
    return r`There is no digest subscription ${code(id)}; ${command('digest list')} shows them.`;
  }
  return sub;
}

const isSubscription = (x: Subscription | Rich): x is Subscription => !Array.isArray(x);

export async function runDigestCommand(args: string | readonly string[], ctx: DigestCommandContext): Promise<Content> {
  const kinds = ctx.kinds ?? DIGEST_KINDS;
  const tokens = tokenize(args);
  const sub = (tokens[0]?.text ?? 'help').toLowerCase();
  const rest = tokens.slice(1);
  const now = ctx.clock.now();
  const manage = ['subscribe', 'unsubscribe', 'pause', 'resume'].includes(sub);
  const allowed = admins(ctx);
  if (manage && allowed.length && !allowed.includes(ctx.userId)) {
    return reply(['Only the Linen admins of this workspace can manage digests; ask one of them.']);
  }
  try {
    switch (sub) {
      case 'subscribe': {
        const a = parseSubscribeArgs(rest, { time: '07:00' }, kinds);
        const channel = await channelIdOf(ctx, a.channel);
        if ('problem' in channel) return reply(channel.problem);
        const channelId = channel.id;
        const refused = ctx.refuseKind?.(a.kind, channelId);
        if (refused) return reply(refused);
        // A digest reads with the key of the channel it is posted in.
        const bound = ctx.keyForChannel
          ? await ctx.keyForChannel(channelId)
          : { linen: ctx.linen, keyRef: ctx.keyRef, timeZone: ctx.timeZone };
        if (!isChannelKey(bound)) return reply(bound);
        const customerIds: string[] = [];
        const names = new Map<string, string>();
        for (const name of a.customers) {
          try {
            const c = await bound.linen.reports.resolveCustomer(name);
            if (!customerIds.includes(c.id)) customerIds.push(c.id);
            names.set(c.id, c.name);
          } catch (e) {
            if (e instanceof LinenError) return reply([e.userMessage]);
            throw e;
          }
        }
        const problem = await ctx.channels.canPost(channelId);
        if (problem) return reply(problem);
        const schedule = { cadence: a.cadence, time: a.time, timeZone: bound.timeZone };
        const first = nextRuns(schedule, now, 1)[0] ?? null;
        const created = await ctx.store.createSubscription(
          {
            ...schedule,
            platform: ctx.platform,
            orgId: ctx.orgId ?? null,
            channelName: channelId === ctx.channelId ? (ctx.channelName ?? null) : null,
            serviceUrl: ctx.serviceUrl ?? null,
            kind: a.kind,
            options: a.options,
            keyRef: bound.keyRef,
            channelId,
            customerIds,
            minSeverity: a.minSeverity,
            allClear: a.allClear,
            createdBy: ctx.userId,
          },
          now,
          first,
        );
        return reply(['Subscribed: '], describeSubscription(kinds, created, names), [
          `.\nNext runs: ${nextThree(created, now)}.`,
        ]);
      }
      case 'list': {
        const subs = await ctx.store.listSubscriptions({ platform: ctx.platform, orgId: ctx.orgId ?? undefined });
        if (!subs.length) return reply(['No digest subscriptions yet. '], usage(kinds));
        const lines = subs.map((s): Rich => ['• ', ...describeSubscription(kinds, s, undefined, !keyKnown(ctx, s))]);
        const parts = listedLines(r`${b('Digest subscriptions')} (${String(subs.length)})`, lines, 'subscriptions');
        return { summary: [`${subs.length} digest subscriptions: ${subs.map((s) => s.id).join(', ')}`], parts };
      }
      case 'unsubscribe':
      case 'pause':
      case 'resume': {
        const found = await findOwned(ctx, rest[0]?.text);
        if (!isSubscription(found)) return reply(found);
        if (sub === 'unsubscribe') {
          await ctx.store.deleteSubscription(found.id);
          return reply(r`Unsubscribed ${code(found.id)}: no more digests in ${channelOfSub(found)}.`);
        }
        if (sub === 'pause') {
          const s = await ctx.store.setStatus(found.id, 'paused', now, null);
          return reply(r`Paused ${code(s!.id)}; ${command(`digest resume ${s!.id}`)} starts it again.`);
        }
        if (!keyKnown(ctx, found)) return reply(r`${code(found.id)} ${KEY_GONE}.`);
        const problem = await ctx.channels.canPost(found.channelId);
        if (problem) return reply(problem);
        const s = await ctx.store.setStatus(found.id, 'active', now, nextRuns(found, now, 1)[0] ?? null);
        return reply(['Resumed '], describeSubscription(kinds, s!), [`.\nNext runs: ${nextThree(s!, now)}.`]);
      }
      case 'preview': {
        // `preview <id>` previews that subscription; `preview` or `preview <kind>` this channel's default one.
        const kind = rest[0] ? kinds.byWord(rest[0].text) : kinds.default;
        let target: Subscription;
        if (!kind) {
          const found = await findOwned(ctx, rest[0]!.text);
          if (!isSubscription(found)) return reply(found);
          if (!keyKnown(ctx, found)) return reply(r`${code(found.id)} ${KEY_GONE}.`);
          target = found;
        } else {
          target = {
            id: '',
            platform: ctx.platform,
            orgId: null,
            channelName: null,
            serviceUrl: null,
            kind: kind.name,
            options: {},
            keyRef: ctx.keyRef,
            channelId: ctx.channelId,
            cadence: kind.defaultCadence,
            time: '07:00',
            timeZone: ctx.timeZone,
            customerIds: [],
            minSeverity: 'low',
            allClear: true,
            status: 'active',
            failureReason: null,
            createdBy: ctx.userId,
            createdAt: now,
            nextRunAt: null,
          };
        }
        const refused = ctx.refuseKind?.(target.kind, ctx.channelId);
        if (refused) return reply(refused);
        const d = await digestFor(ctx.store, { ...target, allClear: true }, now, keySnapshot(ctx.linen), { kinds });
        const quiet = d.unchanged && !target.allClear;
        const said = note([
          i(`Preview, only you can see it${quiet ? '; the scheduled digest would stay quiet' : ''}.`),
        ]);
        return { summary: d.summary, parts: [...d.parts.slice(0, CONTENT_LIMITS.parts - 1), said] };
      }
      default:
        return reply(['Digest commands:\n'], usage(kinds));
    }
  } catch (e) {
    if (e instanceof ArgsError) return reply([e.message]);
    if (e instanceof LinenError) return reply([e.userMessage]);
    throw e;
  }
}
