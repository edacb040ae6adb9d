/**
 * The home as the adapters show it where it lives (Slack's Home tab, a Teams card answering its own actions): the
 * `home` command's answer in the person's place, with the same access rules as any command, and always with a
 * Refresh button, so that a sentence shown instead (not connected, an error) can be tried again. What a home's
 * button or menu asks is one of the home's own words; anything else is answered as the home. While it is being
 * built, and when the Linen API does not answer in time, the home says so rather than staying blank.
 */
import { notAnswering } from '../answers/friendly-errors.ts';
import { COMMAND_REGISTRY } from '../commands/index.ts';
import { type Answered, answerButton, type CommandRequest, type PlaceDeps } from '../connections/answer-in-place.ts';
import { actions, type Content, note, text } from '../content/document.ts';
import { icon, line } from '../content/rich.ts';
import { HOME_COMMANDS, HOME_WORD } from './home-words.ts';

/** The home's Refresh button and its keeping itself current for the person, on an answer that has neither. */
function refreshable(content: Content, userId: string): Content {
  const hasRefresh = content.parts.some((p) => p.kind === 'actions' && p.actions.some((a) => a.kind === 'refresh'));
  return {
    ...content,
    parts: hasRefresh
      ? content.parts
      : [...content.parts, actions([{ kind: 'refresh', label: 'Refresh', command: HOME_COMMANDS.show }])],
    live: content.live ?? { command: HOME_COMMANDS.show, userIds: [userId] },
  };
}

/** The home (or what a home's button asks of it), answered in the person's place; never throws. */
export async function answerHome(
  command: string,
  req: Omit<CommandRequest, 'text'>,
  deps: PlaceDeps,
): Promise<Answered> {
  const asked = (deps.commands ?? COMMAND_REGISTRY).parse(command).kind === HOME_WORD ? command : HOME_COMMANDS.show;
  const answered = await answerButton(asked, req, deps, { share: false });
  return { ...answered, content: refreshable(answered.content, req.userId) };
}

/** The home while it is being built: never a blank one. */
export const loadingHome = (userId: string): Content =>
  refreshable(
    {
      summary: ['Building your Linen home…'],
      parts: [text([icon('hourglass'), ' Building your Linen home…']), note(['It shows here as soon as it is ready.'])],
    },
    userId,
  );

/** The home when the Linen API did not answer in time: one sentence, and Refresh. */
export const homeNotAnswering = (userId: string): Content =>
  refreshable({ summary: [line(notAnswering())], parts: [text([icon('warning'), ' ', line(notAnswering())])] }, userId);
