/**
 * What an answer needs to know of the chat platform it is shown on: its name and the words for its people and
 * places. Each adapter supplies its own (`slack-bot/surface.ts`, `teams-bot/surface.ts`); nothing else in the
 * chat core depends on the platform.
 */
import type { Rich } from './content/rich.ts';

export interface Surface {
  /** `Slack`, `Microsoft Teams`. */
  readonly name: string;
  /** Who may connect keys and change access, in a few words (`workspace admins and owners`). */
  readonly admins: string;
  /** One of them, in a sentence (`a workspace admin`). */
  readonly anAdmin: string;
  /** The organization as the platform calls it (`workspace`, `organization`). */
  readonly organization: string;
  /** How answers reach people, and how one is shared with a channel. */
  readonly privacy: Rich;
  /** How a command names another channel (`#channel`), where the platform lets one be typed. */
  readonly channelArgument?: string | undefined;
  /**
   * Where `connect` is typed: in a channel too (a key for that channel only, or for all: Slack), or only in the 1:1
   * chat with the bot, for the whole organization (Teams, whose channels cannot show a form to one person).
   */
  readonly connectIn: 'channel' | 'personal-chat';
  /**
   * Where a person's home is (`Linen's Home tab`), and whether `home` answers in a channel too: where answers typed
   * there are the person's alone (Slack's are), not where the channel would read them (Teams').
   */
  readonly home: { readonly place: string; readonly inChannels: boolean };
}

/** Where no platform is named (a test, a report): plain words. */
export const PLAIN_SURFACE: Surface = {
  name: 'chat',
  admins: 'admins',
  anAdmin: 'an admin',
  organization: 'workspace',
  privacy: ['Answers are visible only to you until you share them.'],
  connectIn: 'channel',
  home: { place: 'your direct messages with Linen', inChannels: true },
};
