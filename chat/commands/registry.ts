/**
 * A registry of command modules: the grammar made from them (text in, a typed command out, and back), the modules of
 * one platform, and a module by name. Built from a list (`createRegistry([...COMMANDS, another])`), so a registry
 * with one more command is one value away; the real one is in `index.ts`.
 */
import type { Platform } from '../digests/storage/types.ts';
import { type AnyCommand, type CommandInput, Problem, type Token } from './command.ts';

/** A parsed command of a module: `{ kind: name, ...its arguments }`. */
export type ParsedCommand<M extends AnyCommand> = M extends {
  name: infer Name extends string;
  format(args: infer Args): string;
}
  ? { kind: Name } & Args
  : never;

/** The command was recognised but its arguments were not: answer its usage with the problem. */
export interface UsageCommand<Name extends string = string> {
  kind: 'usage';
  subcommand: Name;
  problem: string;
}

/** An unknown command word: answer the help, naming what was typed. */
export interface UnknownCommand {
  kind: 'unknown';
  typed: string;
}

/** What the grammar of a registry reads any text as. */
export type CommandOf<M extends AnyCommand> = ParsedCommand<M> | UsageCommand<M['name']> | UnknownCommand;

/** Any command a registry parsed: a module's, or a usage or unknown one. */
type SomeCommand = { kind: string } & object;

export interface CommandRegistry<M extends AnyCommand = AnyCommand> {
  /** In help order. */
  readonly modules: readonly M[];
  /** The module named so (its name, not an alias). */
  find(name: string): M | undefined;
  /** The registry of the commands offered on one platform. */
  forPlatform(platform: Platform): CommandRegistry<M>;
  /** Command text (without `/linen`) as a typed command; never throws. An empty text is `help`. */
  parse(text: string | null | undefined): CommandOf<M>;
  /** The canonical text of a command (what a Share or choice button replays); a usage or unknown one is `help`. */
  format(command: SomeCommand): string;
  /** The same command about another customer; a command that names none is unchanged. */
  withCustomer<C extends SomeCommand>(command: C, customer: string): C;
}

/** The words of command text; a quoted name (straight or curly quotes, closed or not) is one word. */
function tokenize(text: string): Token[] {
  const out: Token[] = [];
  const re = /["“”]([^"“”]*)["“”]?|(\S+)/g;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    const tok = (m[1] ?? m[2] ?? '').trim().replace(/\s+/g, ' ');
    if (tok !== '') out.push({ text: tok, quoted: m[1] !== undefined });
  }
  return out;
}

/** Whether a parsed command is the usage of a command whose arguments did not parse (no module is named `usage`). */
export const isUsage = (command: SomeCommand): command is UsageCommand => command.kind === 'usage';

/** Whether a parsed command is an unknown word (no module is named `unknown`). */
export const isUnknown = (command: SomeCommand): command is UnknownCommand => command.kind === 'unknown';

/** A parsed command's arguments: everything but its kind. */
export function argsOf(command: SomeCommand): object {
  const { kind: _kind, ...args } = command;
  return args;
}

export function createRegistry<const M extends AnyCommand>(modules: readonly M[]): CommandRegistry<M> {
  const byName = new Map<string, M>();
  const byWord = new Map<string, M>();
  for (const m of modules) {
    if (m.name === 'usage' || m.name === 'unknown')
      throw new Error(`"${m.name}" is the grammar's own kind, not a command.`);
    for (const word of [m.name, ...(m.aliases ?? [])]) {
      const w = word.toLowerCase();
      const taken = byWord.get(w);
      if (taken) throw new Error(`The word "${word}" of the ${m.name} command is already the ${taken.name} command's.`);
      byWord.set(w, m);
    }
    byName.set(m.name, m);
  }
  const platforms = new Map<Platform, CommandRegistry<M>>();

  const registry: CommandRegistry<M> = {
    modules,
    find: (name) => byName.get(name),
    forPlatform(platform) {
      let of = platforms.get(platform);
      if (!of) {
        of = createRegistry(modules.filter((m) => !m.platforms || m.platforms.includes(platform)));
        platforms.set(platform, of);
      }
      return of;
    },
    parse(text) {
      const typed = String(text ?? '');
      const tokens = tokenize(typed);
      const head = tokens[0];
      const module = head === undefined ? byName.get('help') : byWord.get(head.text.toLowerCase());
      if (!module) return { kind: 'unknown', typed: head?.text ?? '' };
      const input: CommandInput = {
        tokens: tokens.slice(1),
        words: tokens.slice(1).map((t) => t.text),
        rest: typed.trim().replace(/^\S+\s*/, ''),
      };
      const args = module.parse(input);
      if (args instanceof Problem) return { kind: 'usage', subcommand: module.name, problem: args.problem };
      return { kind: module.name, ...args } as ParsedCommand<M>;
    },
    format(command) {
      if (isUsage(command)) return `help ${command.subcommand}`.trim();
      const module = byName.get(command.kind);
      return module ? module.format(argsOf(command)) : 'help';
    },
    withCustomer(command, customer) {
      const module = byName.get(command.kind);
      if (!module?.withCustomer) return command;
      return { kind: command.kind, ...module.withCustomer(argsOf(command), customer) } as typeof command;
    },
  };
  return registry;
}
