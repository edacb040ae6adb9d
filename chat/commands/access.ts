/**
 * `access accounting allow|deny [#channel]` · `access accounting dms on|off`: where accounting answers may appear,
 * changed by an admin; `access` alone shows it to anyone.
 */
import { changeAccess } from '../connections/connection-commands.ts';
import { defineCommand } from './command.ts';

interface AccessArgs {
  words: readonly string[];
}

export const accessCommand = defineCommand({
  name: 'access',
  access: 'admins',
  accessFor: (a: AccessArgs) => (a.words.length ? 'admins' : 'everyone'),
  connection: true,
  help: {
    usage: 'access accounting allow|deny [#channel]',
    description: 'where balance, invoices, purchase orders and their digests may appear',
    examples: ['access accounting dms on|off'],
  },
  parse: ({ words }): AccessArgs => ({ words }),
  format: (a: AccessArgs) => ['access', ...a.words].join(' '),
  answer: (a, ctx) => changeAccess(a.words, ctx),
});
