/**
 * What a command module declares: its word and aliases, who may see its answer (`access`, required), its help, how
 * the words after it parse into its arguments (or the sentence saying what is wrong), its canonical text, and how
 * it answers. `defineCommand` checks a module against this shape, so a module without an access class, help or
 * answer does not compile. The registry (`registry.ts`) builds the grammar, the help, the access rules and the
 * platforms' command menus from the modules.
 */
import type { AccessClass } from '../access-class.ts';
import type { Answer, AnswerContext } from '../answers/answer.ts';
import type { ConnectionCommandContext } from '../connections/connection-commands.ts';
import type { Content } from '../content/document.ts';
import type { Platform } from '../digests/storage/types.ts';
import type { Surface } from '../surface.ts';
import { withNote } from '../views/common.ts';
import type { CommandRegistry } from './registry.ts';

/** A word of the command text; `quoted` when it was typed in quotes (`"Mercy General Hospital"`, one token). */
export interface Token {
  text: string;
  quoted: boolean;
}

/** What follows a command's word. */
export interface CommandInput {
  /** The words after the command's word, a quoted name as one. */
  tokens: readonly Token[];
  /** Their texts. */
  words: readonly string[];
  /** The text after the command's word as typed (quotes and Slack's `<#C123|name>` links kept). */
  rest: string;
}

/** Arguments that do not parse: the sentence saying what is wrong (answered with the command's usage). */
export class Problem {
  constructor(readonly problem: string) {}
}

/** Where a platform offers a command in its menu: a 1:1 chat with the bot, or a channel or group chat. */
export type MenuPlace = 'private' | 'channel';

export interface CommandHelp {
  /** The syntax, as help shows it: `balance [customer]`; `[#channel]` is left out where no channel can be typed. */
  usage: string;
  /** What it answers, in a sentence or two (a connection command's: a few words after its usage). */
  description: string;
  /** Text to type as it is (help shows those that name no channel where none can be typed). */
  examples: readonly string[];
  /**
   * Offered in the platforms' command menus (Teams' command lists, Slack's usage hint): the line beside the command
   * there, and where. Absent: typed only.
   */
  menu?: { summary: string; in: readonly MenuPlace[] } | undefined;
}

interface CommandBase<Name extends string, Args extends object> {
  /** The word; also the `kind` of the parsed command. */
  name: Name;
  /** Other words for it (`ar` for balance), matched without case as the name is. */
  aliases?: readonly string[];
  /** Who may see its answer, and where (see access-class.ts). */
  access: AccessClass;
  /** The class of one use, when some uses need less than `access` (`access` with no arguments only reads). */
  accessFor?(args: Args): AccessClass;
  /** Its help; a function of the platform's words where those change it (where `connect` is typed). */
  help: CommandHelp | ((surface: Surface) => CommandHelp);
  /** The words after the command's word, as its arguments; a `Problem` answers with its usage. */
  parse(input: CommandInput): Args | Problem;
  /** Its canonical text, which parses back to the same arguments (Share and choice buttons replay it). */
  format(args: Args): string;
  /** The same command about another customer (a customer chosen among the matches of a name). */
  withCustomer?(args: Args, customer: string): Args;
  /** The platforms it is offered on (default every one). */
  platforms?: readonly Platform[];
}

/** What an answer has besides its arguments: the answer context, and what the registry knows of the command. */
export interface CommandContext extends AnswerContext {
  surface: Surface;
  /** The registry answering (help lists it). */
  commands: CommandRegistry;
  /** This command's canonical text about another customer (what a choice among matching customers replays). */
  commandFor(customerId: string): string;
  /** The answer showing this command's usage, with what is wrong. */
  usage(problem: string): Content;
}

/** A command answered with the Linen key of the place it is typed in. */
interface AnsweringCommand<Name extends string, Args extends object> extends CommandBase<Name, Args> {
  connection?: undefined;
  /** The answer; a failure it throws becomes one friendly sentence (answers/answer.ts). */
  answer(args: Args, ctx: CommandContext): Promise<Answer>;
}

/**
 * A command about the organization's connection itself (connect, status, access...): answered before a key is
 * looked up, since there may be none yet, and only where organizations connect their own keys.
 */
interface ConnectionCommand<Name extends string, Args extends object> extends CommandBase<Name, Args> {
  connection: true;
  /** The answer; null when the platform showed a form instead. */
  answer(args: Args, ctx: ConnectionCommandContext): Promise<Content | null>;
}

export type CommandModule<Name extends string, Args extends object> =
  | AnsweringCommand<Name, Args>
  | ConnectionCommand<Name, Args>;

/** Any command module, whatever its name and arguments. */
export type AnyCommand = CommandModule<string, object>;

/** A command module, checked against the shape every module has. */
export function defineCommand<const Name extends string, Args extends object>(
  module: CommandModule<Name, Args>,
): CommandModule<Name, Args> {
  return module;
}

/** A command's help on a platform. */
export const helpOf = (command: AnyCommand, surface: Surface): CommandHelp =>
  typeof command.help === 'function' ? command.help(surface) : command.help;

/** The class of one use of a command. */
export const accessOf = (command: AnyCommand, args: object): AccessClass => command.accessFor?.(args) ?? command.access;

/** An answer from the API's data: it may be shared in the channel. */
export const data = (content: Content): Answer => ({ content, shareable: true, outcome: 'answered' });

/** Help, a choice or a sentence: for the person who asked only. */
export const info = (content: Content): Answer => ({ content, shareable: false, outcome: 'answered' });

/** The content with a note under its title, when there is one. */
export const noted = (content: Content, note: string | undefined): Content =>
  note ? withNote(content, note) : content;

/** The moment an answer is about (the context's clock). */
export const nowOf = (ctx: AnswerContext): Date => new Date((ctx.now ?? Date.now)());

/** A name as one word of command text: quoted when it has spaces (quote marks inside it cannot be typed: left out). */
export const quoted = (s: string): string => {
  const t = s.replace(/["“”]/g, '');
  return /\s/.test(t) ? `"${t}"` : t;
};
