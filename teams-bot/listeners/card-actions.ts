/**
 * The cards' buttons (`Action.Execute`, invoke `adaptiveCard/action`): a customer chosen among several (the command
 * asked again, its answer replacing the choices), an invoice's PDF (delivered in the person's 1:1 chat), the
 * connect form's submission (the key checked and saved, the form replaced by what the key can see, or shown again
 * with one sentence on the field at fault), and the home's refresh (Universal Actions: the card's own `refresh` when
 * the person views it, its Refresh button, a follow chosen, a digest or alert paused or removed), answered with the
 * current card itself. Teams waits for the invoke's answer, so slow work answers "on its way" at once and posts its
 * result after, and a home not built within Teams' wait is answered as being built.
 */
import type {
  AdaptiveCardActionCardResponse,
  AdaptiveCardActionMessageResponse,
  AdaptiveCardActionResponse,
  IAdaptiveCardActionInvokeActivity,
} from '@microsoft/teams.api';
import type { App } from '@microsoft/teams.apps';
import type { IAdaptiveCard } from '@microsoft/teams.cards';
import { failureFields } from '../../base/logging/log-fields.ts';
import { answerInTime, INTERACTIVE_DEADLINES } from '../../chat/answers/answer-in-time.ts';
import { describeError, friendlyError } from '../../chat/answers/friendly-errors.ts';
import { type AnswerOutcome, outcomeOfError } from '../../chat/answers/outcome.ts';
import { answerButton, contextFor } from '../../chat/connections/answer-in-place.ts';
import { connectKey } from '../../chat/connections/connect-key.ts';
import { EVERYWHERE } from '../../chat/connections/connection.ts';
import { choiceCommand } from '../../chat/content/document.ts';
import { answerHome, loadingHome } from '../../chat/home/answer-home.ts';
import { HOME_COMMANDS } from '../../chat/home/home-words.ts';
import type { ActionName } from '../../chat/operations/metrics.ts';
import { parsePdfRef } from '../../chat/views/balance.ts';
import { errorView } from '../../chat/views/common.ts';
import { ADMINS_ONLY } from '../admins.ts';
import { toAdaptiveCard, VERB } from '../cards/render.ts';
import { CONNECT_VERB, connectedCard, connectForm, INPUT } from '../connect-form.ts';
import { offerPdf } from '../pdf.ts';
import { placeOf, type TeamsPlace } from '../place.ts';
import { afterAcknowledging, INVOKE_DEADLINE_MS, placeDeps, post, replace, requestFor } from './answering.ts';
import type { TeamsDeps } from './index.ts';

const message = (text: string): AdaptiveCardActionMessageResponse => ({
  statusCode: 200,
  type: 'application/vnd.microsoft.activity.message',
  value: text,
});
const card = (content: IAdaptiveCard): AdaptiveCardActionCardResponse => ({
  statusCode: 200,
  type: 'application/vnd.microsoft.card.adaptive',
  value: content,
});

const str = (v: unknown) => (typeof v === 'string' ? v : undefined);

/** The connect form submitted: the key checked and saved, or the form again with the problem on its field. */
async function connect(
  activity: IAdaptiveCardActionInvokeActivity,
  place: TeamsPlace,
  deps: TeamsDeps,
): Promise<AdaptiveCardActionResponse> {
  const data = activity.value?.action?.data ?? {};
  const connectDeps = deps.connect;
  if (!connectDeps) return message('Keys are not connected from Teams on this bot.');
  if (place.type !== 'personal') return message('Connect Linen in your 1:1 chat with Linen.');
  const wasFirst = (await deps.admins.list(place.tenantId)).length === 0;
  const input = {
    apiKey: str(data[INPUT.apiKey]),
    baseUrl: str(data[INPUT.baseUrl]),
    timeZone: str(data[INPUT.timeZone]),
    place: EVERYWHERE,
  };
  const result = await connectKey(input, {
    platform: 'teams',
    orgId: place.tenantId,
    userId: place.person.id,
    userName: place.person.name,
    connections: connectDeps.connections,
    allowedBaseUrls: connectDeps.allowedBaseUrls,
    isAdmin: () => deps.admins.isAdmin(place.tenantId, place.person, { orFirst: true }),
    adminsOnly: ADMINS_ONLY,
    onSecret: (s) => deps.logger.addSecret(s),
    logger: deps.logger,
    now: deps.place.now,
  });
  if (!result.ok)
    return card(
      connectForm({
        allowedBaseUrls: connectDeps.allowedBaseUrls,
        timeZone: connectDeps.defaultTimeZone,
        problem: result,
        values: { baseUrl: input.baseUrl, timeZone: input.timeZone },
      }),
    );
  // Whoever connects an organization's first key becomes its first Linen admin.
  if (wasFirst) await deps.admins.add(place.tenantId, place.person, null, new Date((deps.place.now ?? Date.now)()));
  return card(connectedCard(result));
}

/** The chosen customer's answer, in place of the choices. */
async function rerun(
  activity: IAdaptiveCardActionInvokeActivity,
  place: TeamsPlace,
  deps: TeamsDeps,
  counted: Count,
): Promise<void> {
  const started = Date.now();
  const command = str(activity.value?.action?.data?.command) ?? 'help';
  const answered = await answerButton(command, requestFor(place, deps), placeDeps(deps));
  counted('choose_customer', started, answered.outcome);
  if (activity.replyToId) await replace(deps, place, activity.replyToId, answered.content, answered.command);
  else await post(deps, place, answered.content, answered.command);
}

/** An invoice's PDF, offered in the person's 1:1 chat (accounting answers must be allowed where it was pressed). */
async function pdf(
  activity: IAdaptiveCardActionInvokeActivity,
  place: TeamsPlace,
  deps: TeamsDeps,
  counted: Count,
): Promise<void> {
  const started = Date.now();
  const ref = parsePdfRef(JSON.stringify(activity.value?.action?.data?.invoice ?? null));
  if (!ref) {
    counted('pdf', started, 'answered');
    await post(deps, place, errorView('That button is out of date; ask for the balance again.'), 'pdf');
    return;
  }
  const resolved = await contextFor(placeDeps(deps), requestFor(place, deps), 'accounting');
  if ('refusal' in resolved) {
    counted('pdf', started, 'refused');
    await post(deps, place, errorView(resolved.refusal), 'pdf');
    return;
  }
  try {
    await offerPdf({
      linen: resolved.ctx.linen,
      connector: deps.connectorFor(place.serviceUrl),
      ref,
      tenantId: place.tenantId,
      userId: place.person.id,
      secret: deps.teams.clientSecret,
      pending: deps.pending,
    });
    counted('pdf', started, 'answered');
  } catch (err) {
    counted('pdf', started, outcomeOfError(err));
    deps.logger.info(`PDF of ${ref.n} failed: ${describeError(err)}`, failureFields(err));
    await post(deps, place, errorView(friendlyError(err, { subject: `invoice ${ref.n}` })), 'pdf');
  }
}

/** A refresh's command, with the values of the input a choice's button names (a multi-select sends `a,b,c`). */
function refreshCommand(data: Record<string, unknown>): string {
  const command = str(data.command) ?? HOME_COMMANDS.show;
  const input = str(data.input);
  if (!input) return command;
  const values = (str(data[input]) ?? '')
    .split(',')
    .map((v) => v.trim())
    .filter(Boolean);
  return choiceCommand(command, values);
}

/** The current card, as the answer to the invoke itself, within Teams' wait; a card saying it is on its way after. */
async function refresh(
  activity: IAdaptiveCardActionInvokeActivity,
  place: TeamsPlace,
  deps: TeamsDeps,
  counted: Count,
): Promise<AdaptiveCardActionResponse> {
  const started = Date.now();
  const waitMs = Math.min(INVOKE_DEADLINE_MS, (deps.deadlines ?? INTERACTIVE_DEADLINES).deadlineMs);
  const work = answerHome(refreshCommand(activity.value?.action?.data ?? {}), requestFor(place, deps), placeDeps(deps));
  const outcome = await answerInTime(work, { deadlines: { interimMs: waitMs, deadlineMs: waitMs } });
  counted('refresh', started, outcome.inTime ? outcome.value.outcome : 'error');
  return card(toAdaptiveCard(outcome.inTime ? outcome.value.content : loadingHome(place.person.id)));
}

type Count = (action: ActionName, started: number, outcome: AnswerOutcome) => void;

export function register(app: App, deps: TeamsDeps): void {
  const counted: Count = (action, started, outcome) =>
    deps.metrics.action(action, outcome, (Date.now() - started) / 1000, 'teams');
  app.on('card.action', async (ctx) => {
    const { activity } = ctx;
    const place = placeOf(ctx);
    switch (activity.value?.action?.verb) {
      case CONNECT_VERB:
        return connect(activity, place, deps).catch((err: unknown) => {
          deps.logger.error(
            `teams connect for ${place.tenantId} failed: ${(err as Error).name}: ${(err as Error).message}`,
          );
          return message('The key could not be saved just now; try again in a minute.');
        });
      case VERB.rerun:
        afterAcknowledging(deps, 'customer choice', () => rerun(activity, place, deps, counted));
        return message('Looking that up…');
      case VERB.pdf:
        afterAcknowledging(deps, 'PDF', () => pdf(activity, place, deps, counted));
        return message('Sending the PDF to your 1:1 chat with Linen…');
      case VERB.refresh:
        return refresh(activity, place, deps, counted);
      default:
        deps.logger.info(`ignored a Teams card action the bot never wrote (${String(activity.value?.action?.verb)})`);
        return message('That button is out of date.');
    }
  });
}

export default { register };
