/** `disconnect [here]`: an admin removes every key of the organization, or the channel's own key. */
import { disconnect } from '../connections/connection-commands.ts';
import { defineCommand } from './command.ts';

interface DisconnectArgs {
  here: boolean;
}

export const disconnectCommand = defineCommand({
  name: 'disconnect',
  access: 'admins',
  connection: true,
  help: (surface) =>
    surface.connectIn === 'channel'
      ? { usage: 'disconnect [here]', description: "remove every key, or this channel's own key", examples: [] }
      : { usage: 'disconnect', description: `remove the ${surface.organization}'s key`, examples: [] },
  parse: ({ words }): DisconnectArgs => ({ here: words[0]?.toLowerCase() === 'here' }),
  format: (a: DisconnectArgs) => (a.here ? 'disconnect here' : 'disconnect'),
  answer: (a, ctx) => disconnect(a.here, ctx),
});
