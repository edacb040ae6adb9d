/** `connect`: an admin connects the organization's Linen key (or a channel's own) through the platform's form. */
import { openConnect } from '../connections/connection-commands.ts';
import { defineCommand } from './command.ts';

export const connectCommand = defineCommand({
  name: 'connect',
  access: 'admins',
  connection: true,
  help: (surface) => ({
    usage: 'connect',
    description:
      surface.connectIn === 'channel'
        ? 'connect a Linen key (for every channel, or for this channel only)'
        : `connect your ${surface.organization}'s Linen key (in your 1:1 chat with Linen)`,
    examples: [],
    menu: { summary: `Connect your ${surface.organization}'s Linen key (administrators)`, in: ['private'] },
  }),
  parse: () => ({}),
  format: () => 'connect',
  answer: (_args, ctx) => openConnect(ctx),
});
