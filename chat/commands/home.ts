/**
 * `home [refresh]` · `home follow [customer, ...]` · `home places [department or unit, ...]` ·
 * `home pause|resume|remove digest|alert <id>`: a person's home (views/home.ts), built from the same reports as the
 * commands (home/home-data.ts) and kept current where it is shown: Slack's Home tab, a card in the Teams 1:1 chat.
 * Its menus and buttons ask these words again. What the person follows is kept per platform, organization and
 * person (home/follows.ts); a digest or alert is paused, resumed or removed by its own command, with that command's
 * rules. The overdue invoices and purchase orders appear only where accounting answers may appear in the person's
 * direct messages: the home is theirs alone.
 */

import { ALERT_KIND_LIST, describeAlert } from '../alerts/alert-answers.ts';
import type { Caller } from '../answers/answer.ts';
import { type Content, choiceCommand } from '../content/document.ts';
import { commandWords, line, type Rich, r } from '../content/rich.ts';
import { describeSubscription } from '../digests/digest-answers.ts';
import { DIGEST_KINDS } from '../digests/kinds/index.ts';
import type { Platform } from '../digests/storage/types.ts';
import { customersChosen, placesChosen } from '../home/follow-choice.ts';
import { EVERY_CUSTOMER, type Follower, type Follows } from '../home/follows.ts';
import { readHome } from '../home/home-data.ts';
import { HOME_COMMANDS, HOME_WORD, type WatchAction, type WatchKind } from '../home/home-words.ts';
import { errorView } from '../views/common.ts';
import { homeView, type Watch } from '../views/home.ts';
import { type CommandContext, defineCommand, info, nowOf, Problem } from './command.ts';
import { argsOf } from './registry.ts';

type HomeArgs =
  | { op: 'show' }
  | { op: 'follow' | 'places'; items: string[] }
  | { op: WatchAction; what: WatchKind; id: string };

type WatchArgs = Extract<HomeArgs, { what: WatchKind }>;
const isWatch = (a: HomeArgs): a is WatchArgs => 'what' in a;

const WATCH_ACTIONS: readonly WatchAction[] = ['pause', 'resume', 'remove'];
const WATCH_KINDS: readonly WatchKind[] = ['digest', 'alert'];

/** The command of each digest or alert button, as a person would type it. */
const WATCH_COMMANDS: Record<WatchKind, Record<WatchAction, string>> = {
  digest: { pause: 'digest pause', resume: 'digest resume', remove: 'digest unsubscribe' },
  alert: { pause: 'alert pause', resume: 'alert resume', remove: 'alert remove' },
};

const USAGE =
  'home [refresh] | home follow [customer, ...] | home places [department or unit, ...] | home pause|resume|remove digest|alert <id>';

/** The items of a list typed after its word: separated by commas (menus send their values so), quotes left out. */
const itemsOf = (text: string) =>
  text
    .split(',')
    .map((s) =>
      s
        .trim()
        .replace(/^["“”]+|["“”]+$/g, '')
        .trim(),
    )
    .filter(Boolean);

/** Who the home is for, where its follows are kept. */
function followerOf(caller: Caller | undefined, platform: Platform | undefined): Follower | undefined {
  return caller && platform ? { platform, orgId: caller.orgId, userId: caller.userId } : undefined;
}

/** A digest or alert of the person's paused, resumed or removed by its own command; what that command said. */
async function act(a: WatchArgs, ctx: CommandContext): Promise<Rich> {
  const cmd = ctx.commands.parse(`${WATCH_COMMANDS[a.what][a.op]} ${a.id}`);
  const module = ctx.commands.find(cmd.kind);
  if (!module || module.connection) return [`${a.what === 'digest' ? 'Digests' : 'Alerts'} are not available here.`];
  return (await module.answer(argsOf(cmd), ctx)).content.summary;
}

/** The person's digests and alerts (those they set up, in this organization), described as their commands list them. */
async function watchesOf(ctx: CommandContext, who: Follower, names: Map<string, string>): Promise<Watch[]> {
  const theirs = { platform: who.platform, orgId: who.orgId ?? undefined };
  const mine = (x: { createdBy: string }) => x.createdBy === who.userId;
  // The keys the workers read with: one set up with another is said to be gone, as its own list says.
  const known = new Set(ctx.digests?.keyRefs ?? [ctx.digests?.keyRef]);
  const watch = (kind: WatchKind, x: { id: string; status: string }, line: Rich): Watch => ({
    kind,
    id: x.id,
    line,
    active: x.status === 'active',
  });
  const digests = ctx.digests
    ? (await (await ctx.digests.store()).listSubscriptions(theirs))
        .filter(mine)
        .map((s) => watch('digest', s, describeSubscription(DIGEST_KINDS, s, names, !known.has(s.keyRef))))
    : [];
  const alerts = ctx.alerts
    ? (await (await ctx.alerts.store()).listAlerts(theirs))
        .filter(mine)
        .map((a) => watch('alert', a, describeAlert(a, ALERT_KIND_LIST, names, !known.has(a.keyRef))))
    : [];
  return [...digests, ...alerts];
}

/** What the person follows after a choice: the new follows and what to say, or what is wrong with the choice. */
async function chooseFollows(
  a: Extract<HomeArgs, { items: string[] }>,
  follows: Follows,
  ctx: CommandContext,
): Promise<{ follows: Follows; said: Rich } | { problem: Rich }> {
  if (a.op === 'follow') {
    const found = await customersChosen(a.items, ctx.linen);
    if ('problem' in found) return found;
    const said = found.chosen.length
      ? `Following ${found.chosen.map((c) => line(c.name)).join(', ')}.`
      : 'Following every customer.';
    return { follows: { customerIds: found.chosen.map((c) => c.id), places: follows.places }, said: [said] };
  }
  const customers = await ctx.linen.customers();
  const followed = customers.filter((c) => follows.customerIds.includes(c.id));
  const units = a.items.length ? await ctx.linen.client.inventory.units().all() : [];
  const found = placesChosen(a.items, followed, units);
  if ('problem' in found) return found;
  const said = found.chosen.length
    ? `Showing only ${found.chosen.length === 1 ? 'one department or unit' : `${found.chosen.length} departments and units`} of the customers you follow.`
    : 'Showing every department and unit of the customers you follow.';
  return { follows: { ...follows, places: found.chosen }, said: [said] };
}

async function showHome(a: HomeArgs, ctx: CommandContext): Promise<Content> {
  const caller = ctx.caller;
  const who = followerOf(caller, caller?.platform ?? ctx.digests?.platform);
  const store = who && ctx.home ? await ctx.home.follows() : undefined;
  let follows = store && who ? await store.get(who) : EVERY_CUSTOMER;
  let notice: Rich | undefined;
  if (a.op === 'follow' || a.op === 'places') {
    if (!store || !who) notice = ['What you follow cannot be kept here.'];
    else {
      const chosen = await chooseFollows(a, follows, ctx);
      if ('problem' in chosen) notice = chosen.problem;
      else {
        follows = await store.set(who, chosen.follows, nowOf(ctx));
        notice = chosen.said;
      }
    }
  } else if (isWatch(a)) notice = await act(a, ctx);
  // The home is the person's own: its accounting parts follow the rule of their direct messages.
  const refusal = caller ? (ctx.digests?.refuseAccess?.('accounting', caller.channelId, true) ?? null) : null;
  const data = await readHome({ linen: ctx.linen, follows, now: nowOf(ctx), accounting: refusal === null });
  const names = new Map(data.customers.map((c) => [c.id, c.name]));
  return homeView(data, {
    userId: caller?.userId ?? '',
    notice,
    watches: who ? await watchesOf(ctx, who, names) : [],
    accountingRefusal: refusal,
    choosable: store !== undefined,
  });
}

export const homeCommand = defineCommand({
  name: HOME_WORD,
  // Operational data; its accounting parts are decided where the home is (the person's direct messages).
  access: 'operations',
  help: (surface) => ({
    usage: 'home',
    description: `Your own page: short today, par met, shortfall signals, overdue invoices and budgets running out for the customers you follow, and your digests and alerts; always current in ${surface.home.place}.`,
    examples: ['home', 'home follow Mercy General Hospital, Harborview Hotel'],
    menu: { summary: 'Your home: what you follow, always current', in: ['private'] },
  }),
  parse({ words, rest }): HomeArgs | Problem {
    const verb = words[0]?.toLowerCase();
    if (verb === undefined || (verb === 'refresh' && words.length === 1)) return { op: 'show' };
    if (verb === 'follow' || verb === 'places') return { op: verb, items: itemsOf(rest.replace(/^\s*\S+/, '')) };
    const action = WATCH_ACTIONS.find((w) => w === verb);
    const what = WATCH_KINDS.find((w) => w === words[1]?.toLowerCase());
    if (action && what && words[2] && words.length === 3) return { op: action, what, id: words[2] };
    return new Problem(`I don't know “home ${line(rest.trim())}”; ${USAGE}.`);
  },
  format: (a: HomeArgs) =>
    isWatch(a)
      ? HOME_COMMANDS.watch(a.op, a.what, a.id)
      : a.op === 'show'
        ? HOME_COMMANDS.show
        : choiceCommand(HOME_COMMANDS[a.op], a.items),
  async answer(a, ctx) {
    const caller = ctx.caller;
    if (caller && !caller.privateChat && !ctx.surface.home.inChannels)
      return info(
        errorView(
          r`Your Linen home is yours alone: type ${commandWords(HOME_WORD)} in ${ctx.surface.home.place} to see it.`,
        ),
      );
    return info(await showHome(a, ctx));
  },
});
