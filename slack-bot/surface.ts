/** The words answers use in Slack. */
import { b } from '../chat/content/rich.ts';
import type { Surface } from '../chat/surface.ts';

export const SLACK_SURFACE: Surface = {
  name: 'Slack',
  admins: 'workspace admins and owners',
  anAdmin: 'a workspace admin',
  organization: 'workspace',
  privacy: ['Answers are visible only to you until you press ', b('Share in channel'), '.'],
  channelArgument: '#channel',
  connectIn: 'channel',
  home: { place: "Linen's Home tab", inChannels: true },
};
