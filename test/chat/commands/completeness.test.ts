/**
 * A command module cannot leave out what the registry builds from it: `npm run typecheck` (which covers this file)
 * fails on a module without an access class, help or answer, or with an access class that is not one. Each
 * `@ts-expect-error` below must meet its error: were the field optional, the directive would be unused, and that
 * fails the typecheck too. The parsed command's type follows the module's arguments.
 */
import { describe, expect, expectTypeOf, it } from 'vitest';
import { parseCommand } from '../../../chat/answers/grammar.ts';
import { defineCommand, info } from '../../../chat/commands/command.ts';

const help = { usage: 'nothing', description: 'Nothing at all.', examples: ['nothing'] };
const answer = async () => info({ summary: ['Nothing.'], parts: [] });
const parse = () => ({});
const format = () => 'nothing';

const complete = defineCommand({ name: 'nothing', access: 'everyone', help, parse, format, answer });

// @ts-expect-error: a command without an access class
defineCommand({ name: 'nothing', help, parse, format, answer });

// @ts-expect-error: a command without help
defineCommand({ name: 'nothing', access: 'everyone', parse, format, answer });

// @ts-expect-error: a command without an answer
defineCommand({ name: 'nothing', access: 'everyone', help, parse, format });

// @ts-expect-error: an access class that is not one of the four
defineCommand({ name: 'nothing', access: 'finance', help, parse, format, answer });

defineCommand({
  name: 'nothing',
  access: 'everyone',
  // @ts-expect-error: help without examples
  help: { usage: 'nothing', description: 'Nothing at all.' },
  parse,
  format,
  answer,
});

describe('a command module', () => {
  it('is the module as declared, its name a literal type', () => {
    expect(complete.access).toBe('everyone');
    expectTypeOf(complete.name).toEqualTypeOf<'nothing'>();
  });

  it('gives the parsed command the arguments its module parses', () => {
    const cmd = parseCommand('invoices Mercy overdue');
    if (cmd.kind !== 'invoices') throw new Error(`parsed as ${cmd.kind}`);
    expectTypeOf(cmd.overdue).toEqualTypeOf<boolean>();
    expectTypeOf(cmd.customer).toEqualTypeOf<string | undefined>();
    expect(cmd).toEqual({ kind: 'invoices', customer: 'Mercy', overdue: true });
  });
});
