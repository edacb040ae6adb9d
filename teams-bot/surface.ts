/** The words answers use in Microsoft Teams. */
import type { Surface } from '../chat/surface.ts';

export const TEAMS_SURFACE: Surface = {
  name: 'Microsoft Teams',
  admins: "your organization's Linen admins",
  anAdmin: 'a Linen admin of your organization',
  organization: 'organization',
  privacy: [
    'In a 1:1 chat with Linen answers are yours alone; in a channel Linen answers in the thread, for the channel. To put an answer in a conversation yourself, use Linen from the message box.',
  ],
  connectIn: 'personal-chat',
  home: { place: 'your 1:1 chat with Linen', inChannels: false },
};
