/**
 * A command answered to the person who typed it, on any platform, by the deadline: the answer's work starts, an
 * interim "Looking that up…" is shown when it takes more than about 2 s (the answer then takes its place), and by
 * the deadline the person has the answer or one sentence that the Linen API is not answering. What is shown, and
 * how it replaces the interim one, is the platform's (`AnswerIo`); the command is counted by its outcome.
 */

import type { ServiceLogger } from '../../base/logging/logger.ts';
import type { Answered } from '../connections/answer-in-place.ts';
import type { Content } from '../content/document.ts';
import { commandLabelOf } from '../operations/command-label.ts';
import type { ChatMetrics, Platform } from '../operations/metrics.ts';
import {
  answerInTime,
  type Deadlines,
  INTERACTIVE_DEADLINES,
  interimContent,
  notAnsweringContent,
} from './answer-in-time.ts';

/** How a platform shows an answer to the person. */
export interface AnswerIo {
  /** Shows the interim message. */
  interim(content: Content): Promise<void>;
  /** Shows the answer; `replacesInterim` when the interim message was shown and the answer takes its place. */
  final(content: Content, how: { replacesInterim: boolean; command: string }): Promise<void>;
  /** A form was shown instead of an answer (Slack's connect modal): the interim message, if shown, goes. */
  formShown?(how: { interimShown: boolean }): Promise<void>;
}

export interface DeliverOptions {
  /** The command as typed (its metric label is its subcommand, never what follows). */
  text: string;
  platform: Platform;
  logger: ServiceLogger;
  metrics?: Pick<ChatMetrics, 'command'> | undefined;
  deadlines?: Deadlines | undefined;
}

/** Runs `work` (a command's answer; null when a form was shown) and shows its outcome through `io`. */
export async function deliverAnswer(
  work: Promise<Answered | null>,
  io: AnswerIo,
  options: DeliverOptions,
): Promise<void> {
  const started = Date.now();
  const deadlines = options.deadlines ?? INTERACTIVE_DEADLINES;
  let interimShown = false;
  const outcome = await answerInTime(work, {
    deadlines,
    onInterim: async () => {
      interimShown = true;
      await io.interim(interimContent());
    },
    onLate: () =>
      options.logger.info(`/linen: no answer within ${deadlines.deadlineMs} ms; said the API is not answering`),
  });
  const seconds = () => (Date.now() - started) / 1000;
  const label = commandLabelOf(options.text);
  if (outcome.inTime && outcome.value === null) {
    await io.formShown?.({ interimShown });
    options.metrics?.command(label, 'answered', seconds(), options.platform);
    return;
  }
  const answered = outcome.inTime ? outcome.value! : { content: notAnsweringContent(), command: 'timeout' };
  await io.final(answered.content, { replacesInterim: interimShown, command: answered.command });
  options.metrics?.command(label, outcome.inTime ? outcome.value!.outcome : 'error', seconds(), options.platform);
  options.logger.debug(`/linen ${answered.command} answered in ${Date.now() - started} ms`);
}
