/** `help`: what Linen can answer on this platform, with examples (every command of the registry answering). */
import { helpView } from '../views/help.ts';
import { defineCommand, info } from './command.ts';

export const helpCommand = defineCommand({
  name: 'help',
  aliases: ['?'],
  access: 'everyone',
  help: {
    usage: 'help',
    description: 'What Linen can answer, with examples.',
    examples: ['help'],
    menu: { summary: 'What Linen can answer, with examples', in: ['private', 'channel'] },
  },
  parse: () => ({}),
  format: () => 'help',
  answer: async (_args, ctx) => info(helpView(ctx.surface, ctx.commands)),
});
