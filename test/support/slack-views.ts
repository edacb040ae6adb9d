/** The answers' views as Slack renders them (before the limiter), under the names the view suites use. */
import { COMMAND_REGISTRY } from '../../chat/commands/index.ts';
import type { Content } from '../../chat/content/document.ts';
import { balanceView } from '../../chat/views/balance.ts';
import { chooseCustomerView, errorView, shareFooter as shareFooterPart } from '../../chat/views/common.ts';
import { fillRateView } from '../../chat/views/fillrate.ts';
import { helpView, unknownView, usageView } from '../../chat/views/help.ts';
import { invoicesView } from '../../chat/views/invoices.ts';
import { manifestView } from '../../chat/views/manifest.ts';
import { orderView } from '../../chat/views/order.ts';
import { poView } from '../../chat/views/po.ts';
import { rewashView } from '../../chat/views/rewash.ts';
import { shortView } from '../../chat/views/short.ts';
import { signalsView } from '../../chat/views/signals.ts';
import { ticketsView, ticketView } from '../../chat/views/tickets.ts';
import type { Block, Message } from '../../slack-bot/blocks/kit.ts';
import { toBlockKit } from '../../slack-bot/blocks/render.ts';
import { SLACK_SURFACE } from '../../slack-bot/surface.ts';

const slack =
  <A extends unknown[]>(view: (...args: A) => Content) =>
  (...args: A): Message =>
    toBlockKit(view(...args));

export const balanceMessage = slack(balanceView);
export const chooseCustomerMessage = slack(chooseCustomerView);
export const errorMessage = slack(errorView);
export const fillRateMessage = slack(fillRateView);
export const invoicesMessage = slack(invoicesView);
export const manifestMessage = slack(manifestView);
export const orderMessage = slack(orderView);
export const poMessage = slack(poView);
export const rewashMessage = slack(rewashView);
export const shortMessage = slack(shortView);
export const signalsMessage = slack(signalsView);
export const ticketMessage = slack(ticketView);
export const ticketsMessage = slack(ticketsView);
const SLACK_COMMANDS = COMMAND_REGISTRY.forPlatform('slack');
export const helpMessage = () => toBlockKit(helpView(SLACK_SURFACE, SLACK_COMMANDS));
export const usageMessage = (name: string, problem: string) =>
  toBlockKit(usageView(SLACK_SURFACE, SLACK_COMMANDS.find(name)!, problem));
export const unknownMessage = (typed: string) => toBlockKit(unknownView(SLACK_SURFACE, SLACK_COMMANDS, typed));

/** The "Share in channel" row as a block. */
export const shareFooter = (command: string): Block =>
  toBlockKit({ summary: [], parts: [shareFooterPart(command)] }).blocks[0]!;
