/**
 * What `digest` commands need of Teams: a digest is posted in the conversation it was subscribed in (Teams gives no
 * way to name another channel in a message), and the bot can post wherever it received the command.
 */
import type { DigestChannels } from '../../chat/digests/digest-answers.ts';

export const teamsDigestChannels: DigestChannels = {
  resolve: async () => ({
    problem: [
      'In Teams a digest goes to the channel or chat where you subscribe it: type the command there (after @Linen in a channel).',
    ],
  }),
  canPost: async () => null,
};
