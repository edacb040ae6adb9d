/**
 * The platforms' command menus are the registry's: the usage hint of Slack's /linen in both committed Slack
 * manifests and the Teams bot's command lists in the committed Teams manifest are what `npm run manifests`
 * (scripts/manifests.ts) writes from the registry, within each platform's limits; a command added to a menu makes
 * the committed manifests disagree, and a menu larger than the platform takes stops the script with one sentence.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { defineCommand, helpOf, info, type MenuPlace } from '../../../chat/commands/command.ts';
import { COMMAND_REGISTRY, COMMANDS } from '../../../chat/commands/index.ts';
import { createRegistry } from '../../../chat/commands/registry.ts';
import {
  MENU_LIMITS,
  MenuError,
  manifestsWith,
  slackUsageHint,
  teamsCommandLists,
} from '../../../scripts/manifests.ts';
import { SLACK_SURFACE } from '../../../slack-bot/surface.ts';

const ROOT = resolve(import.meta.dirname, '../../..');
const committed = (file: string) => readFileSync(resolve(ROOT, file), 'utf8');
const SLACK_MANIFESTS = ['slack-bot/manifest.json', 'slack-bot/manifest.distributed.json'];
const usageHintOf = (file: string) => JSON.parse(committed(file)).features.slash_commands[0].usage_hint;
const commandListsOf = () => JSON.parse(committed('teams-bot/manifest.json')).bots[0].commandLists;

/** A command in the menus of both kinds of conversation. */
const menuCommand = (
  name: string,
  summary = `The ${name} of things`,
  places: readonly MenuPlace[] = ['private', 'channel'],
) =>
  defineCommand({
    name,
    access: 'operations',
    help: {
      usage: `${name} <thing> [when]`,
      description: summary,
      examples: [name],
      menu: { summary, in: places },
    },
    parse: () => ({}),
    format: () => name,
    answer: async () => info({ summary: [summary], parts: [] }),
  });

describe('the committed manifests', () => {
  it.each(SLACK_MANIFESTS)('%s has the usage hint the registry makes', (file) => {
    expect(usageHintOf(file)).toBe(slackUsageHint(COMMAND_REGISTRY));
  });

  it('teams-bot/manifest.json has the command lists the registry makes', () => {
    expect(commandListsOf()).toEqual(teamsCommandLists(COMMAND_REGISTRY));
  });

  it.each(SLACK_MANIFESTS)('%s turns the Home tab on and subscribes app_home_opened on the events path', (file) => {
    const m = JSON.parse(committed(file));
    expect(m.features.app_home).toEqual({
      home_tab_enabled: true,
      messages_tab_enabled: true,
      messages_tab_read_only_enabled: false,
    });
    expect(m.settings.event_subscriptions.bot_events).toContain('app_home_opened');
    expect(new URL(m.settings.event_subscriptions.request_url).pathname).toBe('/slack/events');
  });

  it('puts the Home tab and its event back into a Slack manifest that lost them', () => {
    for (const { file, update } of manifestsWith(COMMAND_REGISTRY).filter((m) => m.file.startsWith('slack-bot/'))) {
      const lost = JSON.parse(committed(file));
      delete lost.features.app_home;
      lost.settings.event_subscriptions.bot_events = lost.settings.event_subscriptions.bot_events.filter(
        (e: string) => e !== 'app_home_opened',
      );
      if (lost.settings.event_subscriptions.bot_events.length === 0) delete lost.settings.event_subscriptions;
      expect(JSON.parse(update(JSON.stringify(lost, null, 2)))).toEqual(JSON.parse(committed(file)));
    }
  });

  it('are left as they are by npm run manifests, apart from its formatting', () => {
    for (const { file, update } of manifestsWith(COMMAND_REGISTRY))
      expect(JSON.parse(update(committed(file)))).toEqual(JSON.parse(committed(file)));
  });

  it('offer each command in menus on its platform only, within the platforms’ limits', () => {
    const hint = slackUsageHint(COMMAND_REGISTRY);
    expect(hint.length).toBeLessThanOrEqual(MENU_LIMITS.slackUsageHint);
    // Each command in a menu, in help order, up to its first optional part.
    const inMenus = COMMAND_REGISTRY.forPlatform('slack').modules.filter((m) => helpOf(m, SLACK_SURFACE).menu);
    expect(hint.split(' | ').map((h) => h.split(' ')[0])).toEqual(inMenus.map((m) => m.name));
    expect(hint).toContain(' | ticket <TKT-YY-#####> | tickets | fillrate <customer> | ');
    expect(hint).not.toContain('[');
    const lists = teamsCommandLists(COMMAND_REGISTRY);
    expect(lists.length).toBeLessThanOrEqual(MENU_LIMITS.teamsLists);
    for (const list of lists) {
      expect(list.commands.length).toBeLessThanOrEqual(MENU_LIMITS.teamsCommandsPerList);
      for (const c of list.commands) {
        expect(c.title.length).toBeLessThanOrEqual(MENU_LIMITS.teamsTitle);
        expect(c.description.length).toBeLessThanOrEqual(MENU_LIMITS.teamsDescription);
      }
    }
    // Teams' own command is in no Slack menu, nor in Slack's grammar.
    expect(COMMAND_REGISTRY.forPlatform('slack').find('admins')).toBeUndefined();
    expect(COMMAND_REGISTRY.forPlatform('teams').find('admins')).toBeDefined();
  });
});

describe('a command added to a menu', () => {
  // Each Teams list is full: one out of each makes room.
  const more = createRegistry([
    ...COMMANDS.filter((m) => m.name !== 'digest' && m.name !== 'order'),
    menuCommand('stock'),
  ]);

  it('makes the committed manifests disagree until npm run manifests writes them', () => {
    for (const file of SLACK_MANIFESTS) expect(usageHintOf(file)).not.toBe(slackUsageHint(more));
    expect(slackUsageHint(more)).toMatch(/ \| stock <thing>/);
    expect(commandListsOf()).not.toEqual(teamsCommandLists(more));
    const [personal, channels] = teamsCommandLists(more);
    expect(personal!.commands.at(-1)).toEqual({ title: 'stock', description: 'The stock of things' });
    expect(channels!.commands.map((c) => c.title)).toContain('stock');
    const teams = manifestsWith(more).find((m) => m.file === 'teams-bot/manifest.json')!;
    expect(JSON.parse(teams.update(committed('teams-bot/manifest.json'))).bots[0].commandLists).toEqual(
      teamsCommandLists(more),
    );
  });

  it('stops the script with one sentence when Teams would list more than it takes', () => {
    const crowded = createRegistry([...COMMANDS, menuCommand('stock', 'The stock', ['channel'])]);
    expect(() => teamsCommandLists(crowded)).toThrow(MenuError);
    expect(() => teamsCommandLists(crowded)).toThrow(
      /^Teams lists at most 12 commands for channels and group chats; 13 are offered there \(help, .*, stock\): take one out of that menu/,
    );
    const wordy = createRegistry([
      ...COMMANDS.filter((m) => m.name !== 'digest'),
      menuCommand('stock', 'x'.repeat(129), ['channel']),
    ]);
    expect(() => teamsCommandLists(wordy)).toThrow(/at most 128 characters; the stock command's menu summary has 129/);
  });
});
