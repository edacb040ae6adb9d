/**
 * Slack's Home tab: a person's home (chat/home/) published with `views.publish` for them, with the Linen key of their
 * workspace, after the event or click that asked for it was acknowledged. A home not ready after the interim moment
 * is shown as "Building…" first (never a blank tab), and one not ready by the deadline as one sentence with Refresh;
 * an error is one sentence too. A workspace that has not connected a key is told how to.
 */
import { answerInTime, INTERACTIVE_DEADLINES } from '../chat/answers/answer-in-time.ts';
import type { Content } from '../chat/content/document.ts';
import { answerHome, homeNotAnswering, loadingHome } from '../chat/home/answer-home.ts';
import { commandLabelOf } from '../chat/operations/command-label.ts';
import { type HomeTabPlace, toHomeView } from './blocks/home.ts';
import type { HomeView } from './blocks/kit.ts';
import type { BotDeps } from './listeners/index.ts';
import { type RequestSlack, slackRequest } from './place.ts';

/** The Web API client of the person's workspace, which can publish their Home tab. */
export type HomeSlack = RequestSlack & {
  views: { publish(args: { user_id: string; view: HomeView }): Promise<unknown> };
};

export interface HomeTab extends HomeTabPlace {
  teamId: string | null;
  userId: string;
  slack: HomeSlack;
}

/**
 * Builds the person's home (or what a home's button asks of it) and publishes it on their Home tab; counted as the
 * `home` command when the tab was opened, as a `refresh` button otherwise.
 */
export async function publishHome(
  tab: HomeTab,
  command: string,
  deps: BotDeps,
  how: 'opened' | 'clicked',
): Promise<void> {
  const started = Date.now();
  const publish = async (content: Content, what: string) => {
    try {
      await tab.slack.views.publish({ user_id: tab.userId, view: toHomeView(content, tab) });
    } catch (err) {
      const code = (err as { data?: { error?: string } }).data?.error;
      deps.logger.warn(`could not publish the Home tab of ${tab.userId} (${what}): ${code ?? (err as Error).message}`);
    }
  };
  const req = slackRequest(
    { teamId: tab.teamId, channelId: tab.channelId, userId: tab.userId, slack: tab.slack },
    deps,
  );
  const deadlines = deps.deadlines ?? INTERACTIVE_DEADLINES;
  const outcome = await answerInTime(answerHome(command, req, deps), {
    deadlines,
    onInterim: () => publish(loadingHome(tab.userId), 'building'),
    onLate: () => deps.logger.info(`the Home tab of ${tab.userId}: no answer within ${deadlines.deadlineMs} ms`),
  });
  await publish(outcome.inTime ? outcome.value.content : homeNotAnswering(tab.userId), 'home');
  const answered = outcome.inTime ? outcome.value.outcome : 'error';
  const seconds = (Date.now() - started) / 1000;
  if (how === 'opened') deps.metrics?.command(commandLabelOf(command), answered, seconds);
  else deps.metrics?.action('refresh', answered, seconds);
}
