/**
 * The `/linen` grammar: command text in, a typed command out, and back. It is the registry's (commands/index.ts):
 * each command module parses the words after its own word (commands/<name>.ts). No I/O; every path is a value, so
 * bad input becomes a `usage` command that answers with the command's help instead of an error.
 */
import { COMMAND_REGISTRY, type COMMANDS } from '../commands/index.ts';
import type { CommandOf } from '../commands/registry.ts';

/** Any command of the registry, parsed: `{ kind: 'balance', customer: 'Mercy' }`, or a `usage` or `unknown` one. */
export type Command = CommandOf<(typeof COMMANDS)[number]>;

/** The commands answered with a Linen key (what the grammar's answers know; the rest manage the connection). */
export const SUBCOMMANDS = COMMAND_REGISTRY.modules.filter((m) => !m.connection).map((m) => m.name);

/** The commands that manage an organization's connection: answered before a key is looked up. */
export const CONNECTION_WORDS = COMMAND_REGISTRY.modules.filter((m) => m.connection).map((m) => m.name);

export function parseCommand(text: string | null | undefined): Command {
  return COMMAND_REGISTRY.parse(text);
}

/** The canonical text of a command (what a "Share" or "choose" button replays). */
export function formatCommand(command: Command): string {
  return COMMAND_REGISTRY.format(command);
}
