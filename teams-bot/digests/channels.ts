/**
 * What `digest` and `alert` commands need of Teams: a digest or an alert is posted in the conversation it was set up
 * in (Teams gives no way to name another channel in a message), and the bot can post wherever it received the command.
 */
import type { DigestChannels } from '../../chat/digests/digest-answers.ts';

export const teamsDigestChannels: DigestChannels = {
  resolve: async () => ({
    problem: [
      'In Teams a digest or an alert goes to the channel or chat where you set it up: type the command there (after @Linen in a channel).',
    ],
  }),
  canPost: async () => null,
};

/**
 * The same, able to reach a person's 1:1 chat with Linen (an alert with `dm`): `personalChat` creates (or finds) it
 * through the Bot Connector of the conversation the command came from.
 */
export function teamsChannelsWithDirect(personalChat: (userId: string) => Promise<string>): DigestChannels {
  return {
    ...teamsDigestChannels,
    async direct(userId) {
      try {
        return { id: await personalChat(userId) };
      } catch {
        return {
          problem: ['I could not open a 1:1 chat with you; type the command in your 1:1 chat with Linen instead.'],
        };
      }
    },
  };
}
