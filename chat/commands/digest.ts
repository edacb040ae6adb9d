/**
 * `digest subscribe|list|unsubscribe|pause|resume|preview ...`: scheduled digests in a channel. The words after
 * `digest` are the digest answers' to read (digests/digest-answers.ts, digests/subscribe-args.ts), as typed.
 */
import { runDigestCommand } from '../digests/index.ts';
import { errorView } from '../views/common.ts';
import { defineCommand, info, nowOf } from './command.ts';

interface DigestArgs {
  /** The words after `digest`, as typed (quotes and Slack's <#C123|name> links kept). */
  args: string;
}

export const digestCommand = defineCommand({
  name: 'digest',
  aliases: ['digests'],
  // Which digests may be posted where is checked per kind (DigestDeps.refuseKind); managing them, per platform.
  access: 'operations',
  help: {
    usage:
      'digest subscribe [shortfall|receivables|tickets|budgets] [#channel] [daily|weekly|weekdays|mon,wed,fri] [HH:MM] [customer, ...] [low|medium|high] [NN%] [NNd] [all-clear] | list | unsubscribe <id> | pause <id> | resume <id> | preview [id | kind]',
    description:
      'Scheduled digests in a channel: shortfalls (daily at 07:00 by default), receivables (weekly: new overdue invoices and older aging), ticket status changes, budgets (purchase orders under NN% left or expiring within NN days).',
    examples: [
      'digest subscribe',
      'digest subscribe receivables #finance weekly',
      'digest subscribe budgets 25% 45d',
      'digest preview tickets',
    ],
    menu: {
      summary: 'Scheduled digests in this channel: digest subscribe | list | unsubscribe <id>',
      in: ['channel'],
    },
  },
  parse: ({ rest }): DigestArgs => ({ args: rest }),
  format: (a: DigestArgs) => `digest ${a.args}`.trim(),
  async answer(a, ctx) {
    const d = ctx.digests;
    if (!d || !ctx.caller) return info(errorView('Scheduled digests are not available here.'));
    const linen = ctx.linen.client; // no key: the friendly "no key configured" answer
    const reply = await runDigestCommand(a.args, {
      platform: d.platform,
      userId: ctx.caller.userId,
      channelId: ctx.caller.channelId,
      channelName: ctx.caller.channelName ?? null,
      serviceUrl: ctx.caller.serviceUrl ?? null,
      teamId: ctx.caller.teamId ?? null,
      store: await d.store(),
      channels: d.channels,
      linen,
      keyRef: d.keyRef!,
      ...(d.keyRefs ? { keyRefs: d.keyRefs } : {}),
      ...(d.refuseKind ? { refuseKind: d.refuseKind } : {}),
      ...(d.keyForChannel ? { keyForChannel: d.keyForChannel } : {}),
      timeZone: ctx.linen.timeZone,
      clock: { now: () => nowOf(ctx) },
      adminUserIds: d.adminUserIds ?? [],
    });
    // Subscription management and previews are for the caller only: never shareable.
    return info(reply);
  },
});
