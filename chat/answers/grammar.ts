/**
 * The `/linen` grammar: command text in, a typed command out, and back. It is the registry's (commands/index.ts):
 * each command module parses the words after its own word (commands/<name>.ts). No I/O; every path is a value, so
 * bad input becomes a `usage` command that answers with the command's help instead of an error.
 */
import { COMMAND_REGISTRY, type COMMANDS } from '../commands/index.ts';
import type { CommandOf } from '../commands/registry.ts';

/** Any command of the registry, parsed: `{ kind: 'balance', customer: 'Mercy' }`, or a `usage` or `unknown` one. */
export type Command = CommandOf<(typeof COMMANDS)[number]>;

// Computed beside the registry, not here: a command module may import the grammar (to write another command's text)
// while the registry is still being built, and nothing of it may be read before then.
export { CONNECTION_WORDS, SUBCOMMANDS } from '../commands/index.ts';

export function parseCommand(text: string | null | undefined): Command {
  return COMMAND_REGISTRY.parse(text);
}

/** The canonical text of a command (what a "Share" or "choose" button replays). */
export function formatCommand(command: Command): string {
  return COMMAND_REGISTRY.format(command);
}
