/**
 * `digest subscribe|list|unsubscribe|pause|resume|preview ...`: scheduled digests in a channel. The words after
 * `digest` are the digest answers' to read (digests/digest-answers.ts, digests/subscribe-args.ts), as typed.
 */
import { runDigestCommand } from '../digests/index.ts';
import { DIGEST_COMMAND_HELP } from '../digests/kinds/index.ts';
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
  // The usage, description and examples follow from the digest kinds (digests/kinds/help.ts).
  help: {
    ...DIGEST_COMMAND_HELP,
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
      orgId: ctx.caller.orgId ?? null,
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
