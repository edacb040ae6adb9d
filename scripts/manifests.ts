/**
 * `npm run manifests`: the command menus of the platforms' app manifests, written from the command registry
 * (chat/commands/): the usage hint of Slack's /linen in slack-bot/manifest.json and slack-bot/manifest.distributed.json,
 * and the Teams bot's command lists in teams-bot/manifest.json (which `npm run package:teams` packages); and in both
 * Slack manifests the Home tab turned on with the `app_home_opened` event it is published on (slack-bot/home.ts).
 * The rest of each manifest is left as it is. test/chat/commands/manifests.test.ts fails when a committed manifest and
 * the registry disagree: after adding a command, or changing its `help.menu`, run this.
 *
 * What goes where: the commands offered on the platform whose help has a `menu`, in the registry's order. Slack's
 * usage hint is each one's usage up to its first optional part (`fillrate <customer>`); Teams lists a command in its
 * 1:1 chat list (`private`) or its channel and group chat list (`channel`) with its menu summary. A menu larger than
 * the platform takes stops this with one sentence, and nothing is written.
 *
 *   tsx scripts/manifests.ts
 */
import { spawnSync } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { type AnyCommand, helpOf, type MenuPlace } from '../chat/commands/command.ts';
import { COMMAND_REGISTRY } from '../chat/commands/index.ts';
import type { CommandRegistry } from '../chat/commands/registry.ts';
import type { Surface } from '../chat/surface.ts';
import { SLACK_SURFACE } from '../slack-bot/surface.ts';
import { TEAMS_SURFACE } from '../teams-bot/surface.ts';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/**
 * The platforms' limits on these fields. Slack's manifest schema (github.com/slackapi/manifest-schema) allows a
 * usage hint of 1 to 1,000 characters. Teams' (learn.microsoft.com, app manifest reference, bots.commandLists) allows
 * three command lists of at most 12 commands each; a command's title is at most 32 characters and its description
 * at most 128 in the manifest versions before 1.30, which still take the app (1.30's schema allows 128 and 4,000).
 */
export const MENU_LIMITS = {
  slackUsageHint: 1000,
  teamsLists: 3,
  teamsCommandsPerList: 12,
  teamsTitle: 32,
  teamsDescription: 128,
} as const;

/** A menu the platform does not take: its message is the one sentence the person running this reads. */
export class MenuError extends Error {}

type TeamsScope = 'personal' | 'team' | 'groupChat';

export interface TeamsCommandList {
  scopes: TeamsScope[];
  commands: { title: string; description: string }[];
}

/** Where each menu place is in Teams: a 1:1 chat with the bot, or a team's channels and group chats. */
const TEAMS_SCOPES: Record<MenuPlace, TeamsScope[]> = { private: ['personal'], channel: ['team', 'groupChat'] };
const TEAMS_LIST_NAMES: Record<MenuPlace, string> = { private: '1:1 chats', channel: 'channels and group chats' };

const menuOf = (m: AnyCommand, surface: Surface) => {
  const help = helpOf(m, surface);
  return help.menu && { usage: help.usage, ...help.menu };
};

/** `help | balance | … | fillrate <customer> | …`: each command in a menu, up to its first optional part. */
export function slackUsageHint(commands: CommandRegistry): string {
  const hint = commands
    .forPlatform('slack')
    .modules.flatMap((m) => {
      const menu = menuOf(m, SLACK_SURFACE);
      return menu ? [menu.usage.split(' [')[0]!.trim()] : [];
    })
    .join(' | ');
  if (hint.length < 1 || hint.length > MENU_LIMITS.slackUsageHint)
    throw new MenuError(
      `Slack's usage hint must be 1 to ${MENU_LIMITS.slackUsageHint} characters; the commands in menus make ${hint.length}.`,
    );
  return hint;
}

/** Teams' command lists: one for the 1:1 chat, one for channels and group chats, each command with its summary. */
export function teamsCommandLists(commands: CommandRegistry): TeamsCommandList[] {
  const offered = commands.forPlatform('teams').modules.flatMap((m) => {
    const menu = menuOf(m, TEAMS_SURFACE);
    return menu ? [{ name: m.name, ...menu }] : [];
  });
  const lists = (Object.keys(TEAMS_SCOPES) as MenuPlace[])
    .map((place) => ({
      place,
      scopes: TEAMS_SCOPES[place],
      commands: offered.filter((c) => c.in.includes(place)).map((c) => ({ title: c.name, description: c.summary })),
    }))
    .filter((l) => l.commands.length > 0);
  for (const list of lists) {
    if (list.commands.length > MENU_LIMITS.teamsCommandsPerList)
      throw new MenuError(
        `Teams lists at most ${MENU_LIMITS.teamsCommandsPerList} commands for ${TEAMS_LIST_NAMES[list.place]}; ${list.commands.length} are offered there (${list.commands.map((c) => c.title).join(', ')}): take one out of that menu (its help.menu.in).`,
      );
    for (const c of list.commands) {
      if (c.title.length > MENU_LIMITS.teamsTitle)
        throw new MenuError(
          `Teams takes a command title of at most ${MENU_LIMITS.teamsTitle} characters: "${c.title}".`,
        );
      if (c.description.length > MENU_LIMITS.teamsDescription)
        throw new MenuError(
          `Teams takes a command description of at most ${MENU_LIMITS.teamsDescription} characters; the ${c.title} command's menu summary has ${c.description.length}.`,
        );
    }
  }
  return lists.map(({ scopes, commands }) => ({ scopes, commands }));
}

/** Where `"key":`'s value starts and ends in JSON text (strings skipped, so brackets inside them do not count). */
function valueSpan(text: string, key: string): [number, number] {
  const at = text.indexOf(`"${key}":`);
  if (at < 0 || text.indexOf(`"${key}":`, at + 1) >= 0)
    throw new MenuError(`The manifest must name "${key}" exactly once.`);
  let i = at + key.length + 3;
  while (/\s/.test(text[i]!)) i++;
  const start = i;
  let depth = 0;
  for (; i < text.length; i++) {
    const ch = text[i]!;
    if (ch === '"') {
      for (i++; text[i] !== '"'; i++) if (text[i] === '\\') i++;
      if (depth === 0) return [start, i + 1];
    } else if (ch === '[' || ch === '{') depth++;
    else if (ch === ']' || ch === '}') {
      depth--;
      if (depth === 0) return [start, i + 1];
    }
  }
  throw new MenuError(`The value of "${key}" does not end.`);
}

const replaceValue = (text: string, key: string, value: string) => {
  const [start, end] = valueSpan(text, key);
  return text.slice(0, start) + value + text.slice(end);
};

/** The App Home's tabs: the Home tab the bot publishes, and the Messages tab where /linen is typed too. */
export const SLACK_APP_HOME = {
  home_tab_enabled: true,
  messages_tab_enabled: true,
  messages_tab_read_only_enabled: false,
} as const;

/** The event the Home tab is published on. */
export const SLACK_HOME_EVENT = 'app_home_opened';

interface SlackManifest {
  features: Record<string, unknown>;
  settings: {
    event_subscriptions?: { request_url?: string; bot_events?: string[] };
    interactivity?: { request_url?: string };
  } & Record<string, unknown>;
}

/** A Slack manifest's text with the Home tab on and `app_home_opened` among its bot events (sent where clicks go). */
function withHomeTab(text: string): string {
  const m = JSON.parse(text) as SlackManifest;
  m.features = { ...m.features, app_home: SLACK_APP_HOME };
  const events = m.settings.event_subscriptions ?? { request_url: m.settings.interactivity?.request_url };
  const bot = events.bot_events ?? [];
  events.bot_events = bot.includes(SLACK_HOME_EVENT) ? bot : [...bot, SLACK_HOME_EVENT];
  m.settings = { event_subscriptions: events, ...m.settings };
  return JSON.stringify(m, null, 2);
}

/** Command lists as JSON, one command a line (as the committed manifest is written). */
const commandListsJson = (lists: readonly TeamsCommandList[]) =>
  `[\n${lists
    .map(
      (l) =>
        `{\n"scopes": ${JSON.stringify(l.scopes)},\n"commands": [\n${l.commands
          .map((c) => `{ "title": ${JSON.stringify(c.title)}, "description": ${JSON.stringify(c.description)} }`)
          .join(',\n')}\n]\n}`,
    )
    .join(',\n')}\n]`;

/** The manifests' files, and their text with the menus of `commands`. */
export function manifestsWith(commands: CommandRegistry): { file: string; update(text: string): string }[] {
  const hint = JSON.stringify(slackUsageHint(commands));
  const lists = commandListsJson(teamsCommandLists(commands));
  return [
    { file: 'slack-bot/manifest.json', update: (text) => withHomeTab(replaceValue(text, 'usage_hint', hint)) },
    {
      file: 'slack-bot/manifest.distributed.json',
      update: (text) => withHomeTab(replaceValue(text, 'usage_hint', hint)),
    },
    { file: 'teams-bot/manifest.json', update: (text) => replaceValue(text, 'commandLists', lists) },
  ];
}

/** JSON text as Biome formats it (the project's formatter, with its settings). */
function formatted(file: string, text: string): string {
  const run = spawnSync(join(ROOT, 'node_modules', '.bin', 'biome'), ['format', `--stdin-file-path=${file}`], {
    cwd: ROOT,
    input: text,
    encoding: 'utf8',
  });
  if (run.status !== 0) throw new MenuError(`Biome could not format ${file}: ${run.stderr.trim()}`);
  return run.stdout;
}

async function writeManifests(): Promise<void> {
  const written = await Promise.all(
    manifestsWith(COMMAND_REGISTRY).map(async ({ file, update }) => {
      const before = await readFile(join(ROOT, file), 'utf8');
      return { file, before, after: formatted(file, update(before)) };
    }),
  );
  for (const { file, before, after } of written) {
    if (after === before) continue;
    await writeFile(join(ROOT, file), after);
    console.log(`wrote ${file}`);
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  try {
    await writeManifests();
  } catch (e) {
    console.error(e instanceof MenuError ? e.message : `Could not write the manifests: ${String(e)}`);
    process.exitCode = 1;
  }
}
