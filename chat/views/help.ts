/**
 * `/linen help`, the usage of one command, and the answer to an unknown command, from the commands' own help
 * (commands/<name>.ts): each command that answers with a key as its syntax, description and examples; the commands
 * that manage the connection one line each, under "Connecting Linen".
 */

import { type AnyCommand, helpOf } from '../commands/command.ts';
import type { CommandRegistry } from '../commands/registry.ts';
import { type Content, note, text, title } from '../content/document.ts';
import { b, code, command, i, icon, joinRich, type Rich, r } from '../content/rich.ts';
import type { Surface } from '../surface.ts';

/** A syntax or example as the platform lets it be typed: a channel is named only where one can be. */
const typeable = (surface: Surface, syntax: string) =>
  syntax.replace(' [#channel]', surface.channelArgument ? ` [${surface.channelArgument}]` : '');

const examplesOf = (surface: Surface, examples: readonly string[]) =>
  surface.channelArgument ? examples : examples.filter((e) => !e.includes('#'));

/** A command's syntax, description and examples. */
const usage = (surface: Surface, module: AnyCommand): Rich => {
  const h = helpOf(module, surface);
  const examples = examplesOf(surface, h.examples);
  return r`${command(typeable(surface, h.usage))}\n${h.description}\n${i('e.g.')} ${joinRich(
    examples.map((e) => command(e)),
    '  ',
  )}`;
};

/** A connection command in one line: its forms, then what it does. */
const oneLine = (surface: Surface, module: AnyCommand): Rich => {
  const h = helpOf(module, surface);
  const forms = [typeable(surface, h.usage), ...examplesOf(surface, h.examples).map((e) => typeable(surface, e))];
  return r`${joinRich(
    forms.map((f) => [command(f)]),
    ' · ',
  )} ${h.description}`;
};

/** The connection commands: connecting a key, access rules, status. */
const connecting = (surface: Surface, modules: readonly AnyCommand[]): Rich =>
  joinRich([r`${b('Connecting Linen')} (${surface.admins})`, ...modules.map((m) => oneLine(surface, m))], '\n');

export function helpView(surface: Surface, commands: CommandRegistry, sentence?: Rich): Content {
  // Help names itself in the closing note.
  const answering = commands.modules.filter((m) => !m.connection && m.name !== 'help');
  const connection = commands.modules.filter((m) => m.connection);
  return {
    summary: [`Linen: ${answering.map((m) => typeable(surface, helpOf(m, surface).usage)).join(' | ')}`],
    parts: [
      title(`Linen in ${surface.name}`),
      ...(sentence ? [text(sentence)] : []),
      ...answering.map((m) => text(usage(surface, m))),
      ...(connection.length ? [text(connecting(surface, connection))] : []),
      note(r`A customer may be given by name or id. ${surface.privacy} ${command('help')} shows this again.`),
    ],
  };
}

export function usageView(surface: Surface, module: AnyCommand, problem: string): Content {
  return {
    summary: r`${problem} Usage: ${command(typeable(surface, helpOf(module, surface).usage))}`,
    parts: [text([icon('warning'), ' ', problem]), text(usage(surface, module))],
  };
}

export function unknownView(surface: Surface, commands: CommandRegistry, typed: string): Content {
  return helpView(surface, commands, r`I don't know ${code(typed)}. Here is what ${command('')} can do:`);
}
