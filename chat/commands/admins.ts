/**
 * `admins` · `admins add @person` · `admins remove @person`: who may connect Linen and change access, where the
 * platform keeps its own list of Linen admins (Teams sends no admin role with a message: teams-bot/admins.ts).
 * Anyone may see the list; only an admin may change it.
 */
import { manageAdmins } from '../connections/connection-commands.ts';
import { defineCommand } from './command.ts';

interface AdminsArgs {
  /** `add` or `remove`; the people are the message's @mentions. */
  verb?: string | undefined;
}

export const adminsCommand = defineCommand({
  name: 'admins',
  access: 'admins',
  accessFor: (a: AdminsArgs) => (a.verb ? 'admins' : 'everyone'),
  connection: true,
  platforms: ['teams'],
  help: {
    usage: 'admins',
    description: 'who may connect Linen and change access (whoever connects first is the first)',
    examples: ['admins add @person', 'admins remove @person'],
  },
  parse: ({ words }): AdminsArgs => ({ verb: words[0] }),
  format: (a: AdminsArgs) => (a.verb ? `admins ${a.verb}` : 'admins'),
  answer: (a, ctx) => manageAdmins(a.verb, ctx),
});
