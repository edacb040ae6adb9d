/** `status`: what is connected (each key's last four characters) and where accounting answers appear. */
import { showStatus } from '../connections/connection-commands.ts';
import { defineCommand } from './command.ts';

export const statusCommand = defineCommand({
  name: 'status',
  access: 'everyone',
  connection: true,
  help: {
    usage: 'status',
    description: "what is connected (the key's last four characters) and where accounting answers appear",
    examples: [],
    menu: { summary: 'What is connected and where accounting answers may appear', in: ['private'] },
  },
  parse: () => ({}),
  format: () => 'status',
  answer: (_args, ctx) => showStatus(ctx),
});
