/**
 * `/linen digest ...`: subscribe, list, unsubscribe, pause, resume and preview. Pure apart from the store,
 * Slack (to check the bot can post) and the Linen client (to resolve customers, build previews). Every
 * answer is an ephemeral Block Kit message with a text fallback.
 */
import { type LinenClient, LinenError } from '../../shared/index.ts';
import { type Block, context, section } from '../../slack-bot/blocks/kit.ts';
import { LIMITS, truncate } from '../../slack-bot/blocks/limits.ts';
import { escLine as esc } from '../../slack-bot/blocks/mrkdwn.ts';
import type { SlackClient } from '../../slack-bot/digests/slack.ts';
import type { Clock } from './clock.ts';
import { DEFAULT_CADENCE, describeKind, digestKind } from './kinds.ts';
import { digestFor, keySnapshot } from './runner.ts';
import { describeSchedule, formatInstant, nextRuns } from './schedule.ts';
import type { DigestKind, DigestStore, Subscription } from './storage/types.ts';
import type { ChannelArg } from './subscribe-args.ts';
import { ArgsError, parseSubscribeArgs, tokenize } from './subscribe-args.ts';

export interface DigestCommandContext {
  userId: string;
  channelId: string;
  teamId?: string | null;
  store: DigestStore;
  slack: SlackClient;
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
  refuseKind?: (kind: DigestKind, channelId: string) => string | null;
  /**
   * The key bound to the digest's channel when keys are bound per channel (installed workspaces), or the sentence
   * saying none is; absent: every channel reads with `linen`.
   */
  keyForChannel?: (channelId: string) => Promise<ChannelKey | string>;
}

export interface ChannelKey {
  linen: LinenClient;
  keyRef: string;
  timeZone: string;
}

export interface CommandReply {
  responseType: 'ephemeral';
  text: string;
  blocks: Block[];
}

const USAGE = [
  '`/linen digest subscribe [shortfall|receivables|tickets|budgets] [#channel] [daily|weekly|weekdays|mon,wed,fri] [HH:MM] [customer, ...] [low|medium|high] [NN%] [NNd] [all-clear]`',
  '`/linen digest list` · `unsubscribe &lt;id&gt;` · `pause &lt;id&gt;` · `resume &lt;id&gt;` · `preview [id | kind]`',
].join('\n');

const reply = (text: string, extra: Block[] = []): CommandReply => ({
  responseType: 'ephemeral',
  text,
  blocks: [section(truncate(text, LIMITS.sectionText)), ...extra].slice(0, LIMITS.blocks),
});

/** The message of a subscription whose key is gone: it cannot run or be previewed until subscribed again. */
const KEY_GONE =
  'was set up with a Linen API key that is no longer configured; unsubscribe it and subscribe again with the current key';

function keyKnown(ctx: DigestCommandContext, s: Subscription): boolean {
  return (ctx.keyRefs ?? [ctx.keyRef]).includes(s.keyRef);
}

/** A bare `#name`: the channel of that name the bot can see (public, or private ones it is in), paging through. */
async function channelNamed(ctx: DigestCommandContext, name: string): Promise<string | null> {
  let cursor: string | undefined;
  for (let page = 0; page < 50; page++) {
    const res = await ctx.slack.conversations.list({
      types: 'public_channel,private_channel',
      exclude_archived: true,
      limit: 1000,
      ...(cursor ? { cursor } : {}),
    });
    const hit = (res.channels ?? []).find((c) => c.name === name || c.name_normalized === name);
    if (hit?.id) return hit.id;
    cursor = res.response_metadata?.next_cursor || undefined;
    if (!cursor) break;
  }
  return null;
}

async function channelIdOf(
  ctx: DigestCommandContext,
  arg: ChannelArg | null,
): Promise<{ id: string } | { problem: string }> {
  if (!arg) return { id: ctx.channelId };
  if ('id' in arg) return { id: arg.id };
  try {
    const id = await channelNamed(ctx, arg.name);
    if (id) return { id };
  } catch (e) {
    const code = (e as { data?: { error?: string } }).data?.error;
    return {
      problem: `I couldn't look up #${esc(arg.name)} (${esc(code ?? 'Slack did not answer')}); pick the channel from Slack's autocomplete or try again.`,
    };
  }
  return {
    problem: `I can't find a channel named #${esc(arg.name)}: check the spelling, and if it is private, run \`/invite @Linen\` in it first.`,
  };
}

function admins(ctx: DigestCommandContext): string[] {
  return (ctx.adminUserIds ?? []).map((s) => s.trim()).filter(Boolean);
}

async function canPost(ctx: DigestCommandContext, channelId: string): Promise<string | null> {
  try {
    const info = await ctx.slack.conversations.info({ channel: channelId });
    const c = info.channel as { is_member?: boolean; is_im?: boolean; is_archived?: boolean } | undefined;
    if (c?.is_archived) return `<#${channelId}> is archived; pick another channel.`;
    if (c?.is_member || c?.is_im) return null;
    return `I'm not a member of <#${channelId}>; run \`/invite @Linen\` in that channel, then try again.`;
  } catch (e) {
    const code = (e as { data?: { error?: string } }).data?.error;
    if (code === 'channel_not_found')
      return `I can't see <#${channelId}>; if it is private, run \`/invite @Linen\` there first.`;
    return `I couldn't check <#${channelId}> (${esc(code ?? String(e))}); try again.`;
  }
}

function describe(s: Subscription, customerNames?: Map<string, string>, keyGone = false): string {
  const who = s.customerIds.length
    ? s.customerIds.map((id) => esc(customerNames?.get(id) ?? id)).join(', ')
    : 'all customers';
  const sev =
    s.kind !== 'shortfall'
      ? ''
      : s.minSeverity === 'low'
        ? ', every severity'
        : `, ${s.minSeverity} severity and above`;
  const always = s.allClear ? (s.kind === 'shortfall' ? ', all-clear posts' : ', posts when nothing changed') : '';
  const status =
    s.status === 'active' ? '' : s.status === 'paused' ? ' · *paused*' : ` · *failing*: ${s.failureReason ?? ''}`;
  const gone = keyGone ? ` · *${KEY_GONE}*` : '';
  // Shortfall digests were the first kind: their lines name no kind.
  const kind = s.kind === 'shortfall' ? '' : `${describeKind(s.kind, s.options)} `;
  return `\`${s.id}\` <#${s.channelId}> ${kind}${describeSchedule(s)}, ${who}${sev}${always}${status}${gone}`;
}

function nextThree(s: Subscription, now: Date): string {
  return nextRuns(s, now, 3)
    .map((d) => formatInstant(d, s.timeZone))
    .join(' · ');
}

async function findOwned(ctx: DigestCommandContext, id: string | undefined): Promise<Subscription | string> {
  if (!id) return 'Give the subscription id; `/linen digest list` shows them.';
  const sub = await ctx.store.getSubscription(id.trim());
  if (!sub || (ctx.teamId && sub.teamId && sub.teamId !== ctx.teamId)) {
    return `There is no digest subscription \`${esc(id)}\`; \`/linen digest list\` shows them.`;
  }
  return sub;
}

export async function runDigestCommand(
  args: string | readonly string[],
  ctx: DigestCommandContext,
): Promise<CommandReply> {
  const tokens = tokenize(args);
  const sub = (tokens[0]?.text ?? 'help').toLowerCase();
  const rest = tokens.slice(1);
  const now = ctx.clock.now();
  const manage = ['subscribe', 'unsubscribe', 'pause', 'resume'].includes(sub);
  const allowed = admins(ctx);
  if (manage && allowed.length && !allowed.includes(ctx.userId)) {
    return reply('Only the Linen admins of this workspace can manage digests; ask one of them.');
  }
  try {
    switch (sub) {
      case 'subscribe': {
        const a = parseSubscribeArgs(rest, { time: '07:00' });
        const channel = await channelIdOf(ctx, a.channel);
        if ('problem' in channel) return reply(channel.problem);
        const channelId = channel.id;
        const refused = ctx.refuseKind?.(a.kind, channelId);
        if (refused) return reply(refused);
        // A digest reads with the key of the channel it is posted in.
        const bound = ctx.keyForChannel
          ? await ctx.keyForChannel(channelId)
          : { linen: ctx.linen, keyRef: ctx.keyRef, timeZone: ctx.timeZone };
        if (typeof bound === 'string') return reply(bound);
        const customerIds: string[] = [];
        const names = new Map<string, string>();
        for (const name of a.customers) {
          try {
            const c = await bound.linen.reports.resolveCustomer(name);
            if (!customerIds.includes(c.id)) customerIds.push(c.id);
            names.set(c.id, c.name);
          } catch (e) {
            if (e instanceof LinenError) return reply(esc(e.userMessage));
            throw e;
          }
        }
        const problem = await canPost(ctx, channelId);
        if (problem) return reply(problem);
        const schedule = { cadence: a.cadence, time: a.time, timeZone: bound.timeZone };
        const first = nextRuns(schedule, now, 1)[0] ?? null;
        const created = await ctx.store.createSubscription(
          {
            ...schedule,
            teamId: ctx.teamId ?? null,
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
        return reply(`Subscribed: ${describe(created, names)}.\nNext runs: ${nextThree(created, now)}.`);
      }
      case 'list': {
        const subs = await ctx.store.listSubscriptions({ teamId: ctx.teamId ?? undefined });
        if (!subs.length) return reply(`No digest subscriptions yet. ${USAGE}`);
        const lines = subs.map((s) => `• ${describe(s, undefined, !keyKnown(ctx, s))}`);
        // One section per chunk of lines, up to the block limit, then a count of what is left out.
        const blocks: Block[] = [];
        let cur = `*Digest subscriptions* (${subs.length})`;
        let listed = 0;
        for (const line of lines) {
          if (cur.length + 1 + line.length > LIMITS.sectionText - 100) {
            if (blocks.length >= LIMITS.blocks - 2) break;
            blocks.push(section(cur));
            cur = '';
          }
          cur = cur ? `${cur}\n${line}` : truncate(line, LIMITS.sectionText - 100);
          listed++;
        }
        if (cur) blocks.push(section(cur));
        if (listed < subs.length) blocks.push(context(`…and ${subs.length - listed} more subscriptions.`));
        return {
          responseType: 'ephemeral',
          text: truncate(
            `${subs.length} digest subscriptions: ${subs.map((s) => s.id).join(', ')}`,
            LIMITS.fallbackText,
          ),
          blocks,
        };
      }
      case 'unsubscribe':
      case 'pause':
      case 'resume': {
        const found = await findOwned(ctx, rest[0]?.text);
        if (typeof found === 'string') return reply(found);
        if (sub === 'unsubscribe') {
          await ctx.store.deleteSubscription(found.id);
          return reply(`Unsubscribed \`${found.id}\`: no more digests in <#${found.channelId}>.`);
        }
        if (sub === 'pause') {
          const s = await ctx.store.setStatus(found.id, 'paused', now, null);
          return reply(`Paused \`${s!.id}\`; \`/linen digest resume ${s!.id}\` starts it again.`);
        }
        if (!keyKnown(ctx, found)) return reply(`\`${found.id}\` ${KEY_GONE}.`);
        const problem = await canPost(ctx, found.channelId);
        if (problem) return reply(problem);
        const s = await ctx.store.setStatus(found.id, 'active', now, nextRuns(found, now, 1)[0] ?? null);
        return reply(`Resumed ${describe(s!)}.\nNext runs: ${nextThree(s!, now)}.`);
      }
      case 'preview': {
        // `preview <id>` previews that subscription; `preview` or `preview <kind>` this channel's default one.
        const kind = rest[0] ? digestKind(rest[0].text) : 'shortfall';
        let target: Subscription;
        if (!kind) {
          const found = await findOwned(ctx, rest[0]!.text);
          if (typeof found === 'string') return reply(found);
          if (!keyKnown(ctx, found)) return reply(`\`${found.id}\` ${KEY_GONE}.`);
          target = found;
        } else {
          target = {
            id: '',
            teamId: null,
            kind,
            options: {},
            keyRef: ctx.keyRef,
            channelId: ctx.channelId,
            cadence: DEFAULT_CADENCE[kind],
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
        const d = await digestFor(ctx.store, { ...target, allClear: true }, now, keySnapshot(ctx.linen));
        const quiet = d.unchanged && !target.allClear;
        const note = `_Preview, only you can see it${quiet ? '; the scheduled digest would stay quiet' : ''}._`;
        return {
          responseType: 'ephemeral',
          text: d.text,
          blocks: [...d.blocks.slice(0, LIMITS.blocks - 1), context(note)],
        };
      }
      default:
        return reply(`Digest commands:\n${USAGE}`);
    }
  } catch (e) {
    if (e instanceof ArgsError) return reply(e.message);
    if (e instanceof LinenError) return reply(esc(e.userMessage));
    throw e;
  }
}
