/**
 * `alert <kind> ...` · `alerts` (`alert list`) · `alert remove|pause|resume|test <id>`: be told the moment something
 * happens (alerts/alert-answers.ts reads the words; each kind is one module in alerts/kinds/).
 */
import {
  ALERT_KIND_LIST,
  type AlertArgs,
  formatAlertArgs,
  parseAlertArgs,
  runAlertCommand,
} from '../alerts/alert-answers.ts';
import { errorView } from '../views/common.ts';
import { defineCommand, info, nowOf } from './command.ts';

export const alertCommand = defineCommand({
  name: 'alert',
  aliases: ['alerts'],
  // Which alerts may be posted where is checked per kind (its own access class); managing them, per platform.
  access: 'operations',
  // A function, read when help is shown: the kinds' modules import the grammar this registry builds.
  help: () => ({
    usage: `alert ${ALERT_KIND_LIST.all.map((k) => k.name).join('|')} ... [#channel | dm] | alerts | alert remove|pause|resume|test <id> | alert help`,
    description:
      'Be told once, the moment something happens: a cart count closing short, a signal appearing, a ticket changing status, an invoice NN days overdue, a purchase order under NN% of its budget, yesterday’s par met below NN%. Posted here, in another channel, or to you alone (dm); “alert help” explains each.',
    examples: [
      'alert short Mercy General Hospital ICU',
      'alert signal shortfall high',
      'alert overdue 60d #finance',
      'alerts',
    ],
    menu: {
      summary: 'Be told the moment a cart closes short, a signal appears…: alert short | alerts',
      in: ['channel'],
    },
  }),
  parse: ({ tokens }): AlertArgs => parseAlertArgs(tokens),
  format: formatAlertArgs,
  async answer(a, ctx) {
    const d = ctx.digests;
    const alerts = ctx.alerts;
    if (!d || !alerts || !ctx.caller) return info(errorView('Alerts are not available here.'));
    const linen = ctx.linen.client; // no key: the friendly "no key configured" answer
    const reply = await runAlertCommand(a, {
      platform: d.platform,
      userId: ctx.caller.userId,
      channelId: ctx.caller.channelId,
      channelName: ctx.caller.channelName ?? null,
      serviceUrl: ctx.caller.serviceUrl ?? null,
      orgId: ctx.caller.orgId ?? null,
      privateChat: ctx.caller.privateChat ?? false,
      store: await alerts.store(),
      channels: d.channels,
      linen,
      keyRef: d.keyRef!,
      keyRefs: d.keyRefs,
      timeZone: ctx.linen.timeZone,
      clock: { now: () => nowOf(ctx) },
      pollMs: alerts.pollMs,
      refuse: d.refuseAccess,
      keyForChannel: d.keyForChannel,
      adminUserIds: d.adminUserIds ?? [],
      wake: alerts.wake,
    });
    // Setting and managing alerts is for the person who typed it: never shareable.
    return info(reply);
  },
});
