/**
 * Buttons: "Share in channel" (post the same answer for everyone), "PDF" (deliver an invoice privately), the
 * customer choices of an ambiguous name (replay the command with the chosen customer), and the home's buttons and
 * menus (its command asked again, its answer in place of the Home tab or of the message clicked).
 */
import type {
  App,
  BlockAction,
  ButtonAction,
  Middleware,
  MultiStaticSelectAction,
  RespondFn,
  SlackActionMiddlewareArgs,
} from '@slack/bolt';
import { failureFields } from '../../../base/logging/log-fields.ts';
import { yieldToPendingAcks } from '../../../base/pending-acks.ts';
import { answerInTime, INTERACTIVE_DEADLINES, notAnsweringContent } from '../../../chat/answers/answer-in-time.ts';
import { describeError, friendlyError } from '../../../chat/answers/friendly-errors.ts';
import { type FetchedPdf, fetchInvoicePdf } from '../../../chat/answers/invoice-pdf.ts';
import { type AnswerOutcome, outcomeOfError } from '../../../chat/answers/outcome.ts';
import { answerButton, contextFor } from '../../../chat/connections/answer-in-place.ts';
import { type Content, choiceCommand, note } from '../../../chat/content/document.ts';
import { b, command, icon, r, user } from '../../../chat/content/rich.ts';
import { answerHome } from '../../../chat/home/answer-home.ts';
import { HOME_COMMANDS } from '../../../chat/home/home-words.ts';
import type { ActionName } from '../../../chat/operations/metrics.ts';
import { parsePdfRef } from '../../../chat/views/balance.ts';
import { errorView } from '../../../chat/views/common.ts';
import { homeTabPlace } from '../../blocks/home.ts';
import { ACTION, toSlackMessage } from '../../blocks/render.ts';
import { type HomeSlack, publishHome } from '../../home.ts';
import { uploadPrivately } from '../../pdf.ts';
import { slackRequest } from '../../place.ts';
import type { BotDeps } from '../index.ts';
import { hasResponseUrl } from '../response-url.ts';

/** An answer for the person who clicked, below the message clicked or (`replace`) in place of it. */
const ephemeral = async (respond: RespondFn, deps: BotDeps, content: Content, replace = false) => {
  const m = toSlackMessage(content);
  try {
    await respond({ response_type: 'ephemeral', replace_original: replace, text: m.text, blocks: m.blocks });
  } catch (err) {
    deps.logger.warn(`could not answer through response_url: ${(err as Error).message}`);
  }
};

/** Where a button was clicked: its workspace and channel pick the Linen key that answers. */
const placeOf = (body: BlockAction, client: App['client'], deps: BotDeps) =>
  slackRequest(
    {
      teamId: body.team?.id ?? body.user.team_id ?? null,
      channelId: body.channel?.id ?? body.container?.channel_id ?? '',
      userId: body.user.id,
      slack: client,
    },
    deps,
  );

/** What a button carries, as text: a signed payload may carry anything (or nothing) there. */
const buttonValue = (action: ButtonAction): string => (typeof action.value === 'string' ? action.value : '');

export function register(app: App, deps: BotDeps): void {
  // Every button of the bot answers through the click's response_url: without one, there is nothing to do.
  const withResponseUrl: Middleware<SlackActionMiddlewareArgs<BlockAction<ButtonAction>>> = async (args) => {
    if (hasResponseUrl(args.body)) return args.next();
    await args.ack();
    deps.logger.info(`ignored a click on ${args.action.action_id} without a response_url: there is nowhere to answer`);
  };

  /** A button counted by its outcome, with the time since its click was taken. */
  const counted = (action: ActionName, started: number, outcome: AnswerOutcome) =>
    deps.metrics?.action(action, outcome, (Date.now() - started) / 1000);

  const replaceWith = (respond: RespondFn, content: Content) => ephemeral(respond, deps, content, true);
  const deadlines = deps.deadlines ?? INTERACTIVE_DEADLINES;
  /** A button's work by the interactive deadline, or undefined (the person was told the API is not answering). */
  const inTime = async <T>(work: Promise<T>, respond: RespondFn, what: string): Promise<T | undefined> => {
    const outcome = await answerInTime(work, {
      deadlines,
      onLate: () => deps.logger.info(`${what}: no answer within ${deadlines.deadlineMs} ms`),
    });
    if (outcome.inTime) return outcome.value;
    await ephemeral(respond, deps, notAnsweringContent());
    return undefined;
  };

  app.action<BlockAction<ButtonAction>>(
    ACTION.share,
    withResponseUrl,
    async ({ ack, action, body, respond, client }) => {
      await ack();
      await yieldToPendingAcks();
      const started = Date.now();
      const place = placeOf(body, client, deps);
      const answer = answerButton(buttonValue(action) || 'help', place, deps, { share: false });
      const message = await inTime(answer, respond, 'share');
      counted('share', started, message?.outcome ?? 'error');
      if (!message) return;
      if (!message.shareable) {
        await ephemeral(respond, deps, message.content);
        return;
      }
      const shared = toSlackMessage({
        summary: message.content.summary,
        parts: [...message.content.parts, note(r`Shared by ${user(body.user.id)} with ${command(message.command)}`)],
      });
      try {
        await respond({
          response_type: 'in_channel',
          replace_original: false,
          text: shared.text,
          blocks: shared.blocks,
        });
        await respond({ delete_original: true });
      } catch (err) {
        deps.logger.warn(`share of /linen ${message.command} failed: ${(err as Error).message}`);
      }
    },
  );

  app.action<BlockAction<ButtonAction>>(
    new RegExp(`^${ACTION.rerun}:`),
    withResponseUrl,
    async ({ ack, action, body, respond, client }) => {
      await ack();
      await yieldToPendingAcks();
      const started = Date.now();
      const answer = answerButton(buttonValue(action) || 'help', placeOf(body, client, deps), deps);
      const answered = await inTime(answer, respond, 'customer choice');
      counted('choose_customer', started, answered?.outcome ?? 'error');
      if (answered) await replaceWith(respond, answered.content);
    },
  );

  /**
   * The home's buttons and menus: on the Home tab, the home published again; in a message (an answer to
   * `/linen home`), the answer in place of it through its response_url.
   */
  const refreshInPlace = async (
    command: string,
    body: BlockAction,
    client: App['client'],
    respond: RespondFn,
  ): Promise<void> => {
    if (body.view?.type === 'home') {
      const teamId = body.team?.id ?? body.user.team_id ?? null;
      const tab = {
        teamId,
        userId: body.user.id,
        slack: client as HomeSlack,
        ...homeTabPlace(body.view.private_metadata),
      };
      await publishHome(tab, command, deps, 'clicked');
      return;
    }
    if (!hasResponseUrl(body)) {
      deps.logger.info('ignored a click on a home button outside the Home tab without a response_url');
      return;
    }
    const started = Date.now();
    const answered = await inTime(answerHome(command, placeOf(body, client, deps), deps), respond, 'refresh');
    counted('refresh', started, answered?.outcome ?? 'error');
    if (answered) await replaceWith(respond, answered.content);
  };

  app.action<BlockAction<ButtonAction>>(
    new RegExp(`^${ACTION.refresh}:`),
    async ({ ack, action, body, client, respond }) => {
      await ack();
      await yieldToPendingAcks();
      await refreshInPlace(buttonValue(action) || HOME_COMMANDS.show, body, client, respond);
    },
  );

  app.action<BlockAction<MultiStaticSelectAction>>(
    new RegExp(`^${ACTION.menu}:`),
    async ({ ack, action, body, client, respond }) => {
      await ack();
      await yieldToPendingAcks();
      // The menu's command is in its action_id; the values chosen follow it.
      const values = (Array.isArray(action.selected_options) ? action.selected_options : []).map((o) =>
        String(o.value),
      );
      await refreshInPlace(
        choiceCommand(action.action_id.slice(ACTION.menu.length + 1), values),
        body,
        client,
        respond,
      );
    },
  );

  app.action<BlockAction<ButtonAction>>(
    new RegExp(`^${ACTION.pdf}:`),
    withResponseUrl,
    async ({ ack, action, body, client, respond }) => {
      await ack();
      await yieldToPendingAcks();
      const started = Date.now();
      const ref = parsePdfRef(buttonValue(action));
      if (!ref) {
        counted('pdf', started, 'answered');
        await ephemeral(respond, deps, errorView('That button is out of date; run /linen balance again.'));
        return;
      }
      let pdf: FetchedPdf | undefined;
      try {
        // A PDF is an accounting answer: the workspace's key for this channel, where accounting may appear.
        const resolved = await contextFor(deps, placeOf(body, client, deps), 'accounting');
        if ('refusal' in resolved) {
          counted('pdf', started, 'refused');
          await ephemeral(respond, deps, errorView(resolved.refusal));
          return;
        }
        pdf = await inTime(fetchInvoicePdf(resolved.ctx.linen, ref), respond, `PDF of ${ref.n}`);
        if (!pdf) {
          counted('pdf', started, 'error');
          return;
        }
      } catch (err) {
        counted('pdf', started, outcomeOfError(err));
        deps.logger.info(`PDF of ${ref.n} failed: ${describeError(err)}`, failureFields(err));
        await ephemeral(respond, deps, errorView(friendlyError(err, { subject: `invoice ${ref.n}` })));
        return;
      }
      try {
        await uploadPrivately(client, body.user.id, pdf);
        counted('pdf', started, 'answered');
        deps.logger.info(`sent the PDF of ${ref.n} (${pdf.bytes.byteLength} bytes) to ${body.user.id}`);
        await ephemeral(respond, deps, {
          summary: [`Sent ${pdf.invoice.invoice_number} to you in a direct message.`],
          parts: [
            note(
              r`${icon('document')} Sent ${b(pdf.invoice.invoice_number)} (PDF) to you in a direct message from the app.`,
            ),
          ],
        });
      } catch (err) {
        counted('pdf', started, 'error');
        const code = (err as { data?: { error?: string } }).data?.error;
        deps.logger.warn(`upload of ${ref.n} to Slack failed: ${describeError(err)}${code ? ` (${code})` : ''}`);
        await ephemeral(
          respond,
          deps,
          errorView(
            `Slack did not accept the PDF upload${code ? ` (${code})` : ''}; ask whoever runs the bot to check its files:write and im:write scopes.`,
          ),
        );
      }
    },
  );
}

export default { register };
