/**
 * A command added by writing one module, in a registry of its own (`createRegistry([...COMMANDS, module])`), and
 * nothing else: it parses (and its bad input answers with its usage), it answers through the real answer path with
 * a connected organization's key (the sandbox API over HTTP, connections in PGlite), it shows in help, choices among
 * customers replay it, and its access class is obeyed: an accounting answer refused in a channel an admin did not
 * allow, an admins' command refused to someone who is not one. The real registry does not know it.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../../base/logging/logger.ts';
import { SecretBox } from '../../../base/secrets/crypto.ts';
import { customerFor } from '../../../chat/answers/customers.ts';
import { parseCommand } from '../../../chat/answers/grammar.ts';
import { data, defineCommand, info, Problem, quoted } from '../../../chat/commands/command.ts';
import { COMMANDS } from '../../../chat/commands/index.ts';
import { createRegistry } from '../../../chat/commands/registry.ts';
import { answerButton, answerCommand, type PlaceDeps } from '../../../chat/connections/answer-in-place.ts';
import { EVERYWHERE } from '../../../chat/connections/connection.ts';
import type { ConnectionPlatform } from '../../../chat/connections/connection-commands.ts';
import { ConnectionStore } from '../../../chat/connections/connection-store.ts';
import { connectedWorkspaceLinen } from '../../../chat/connections/place-linen.ts';
import { type Content, text, title } from '../../../chat/content/document.ts';
import { PLAIN_SURFACE } from '../../../chat/surface.ts';
import { type Sandbox, startSandbox } from '../../../sandbox/index.ts';
import { openTestDb, type TestDb } from '../../support/digest-db.ts';
import { KEYS } from '../../support/sandbox-http.ts';

/** The one new file a new command is: how many open invoices a customer has (an accounting answer). */
const owingCommand = defineCommand({
  name: 'owing',
  aliases: ['owes'],
  access: 'accounting',
  help: {
    usage: 'owing <customer>',
    description: 'How many invoices a customer has open.',
    examples: ['owing Harborview Hotel'],
  },
  parse: ({ words }) => (words.length ? { customer: words.join(' ') } : new Problem('Give a customer name or id.')),
  format: (a: { customer: string }) => `owing ${quoted(a.customer)}`,
  withCustomer: (a, customer) => ({ ...a, customer }),
  async answer(a, ctx) {
    const found = await customerFor(ctx, a.customer);
    if ('reply' in found) return info(found.reply);
    const open = await ctx.linen.client.reports.openInvoices({ customerIds: [found.customer.id] });
    return data({
      summary: [`${found.customer.name} has ${open.length} open invoices.`],
      parts: [title(`Owing: ${found.customer.name}`), text([`${open.length} open invoices`])],
    });
  },
});

/** A second one, for admins only. */
const auditCommand = defineCommand({
  name: 'audit',
  access: 'admins',
  help: { usage: 'audit', description: 'Who asked what today.', examples: ['audit'] },
  parse: () => ({}),
  format: () => 'audit',
  answer: async () => info({ summary: ['Nobody asked anything.'], parts: [text(['Nobody asked anything.'])] }),
});

const registry = createRegistry([...COMMANDS, owingCommand, auditCommand]);

const TEAM = 'T0THROW';
const ALLOWED = 'C0FINANCE';
const OTHER = 'C0FLOOR';
const ADMIN = 'U0ADMIN';
const MEMBER = 'U0MEMBER';
const NOW = Date.parse('2026-11-20T18:00:00Z');

let sandbox: Sandbox;
let db: TestDb;
let deps: PlaceDeps;

const platform: ConnectionPlatform = {
  surface: PLAIN_SURFACE,
  isAdmin: async (userId) => userId === ADMIN,
  adminsOnly: 'Only the admins may do that.',
  openConnectForm: async () => null,
};

const ask = (text: string, channelId = ALLOWED, userId = ADMIN) =>
  answerCommand(
    { text, orgId: TEAM, channelId, userId, platform: 'slack', surface: PLAIN_SURFACE, connection: platform },
    deps,
  );

/** What the answer says, its text and the commands its buttons replay. */
const said = (content: Content | undefined) => JSON.stringify(content);

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, today: '2026-11-20', rateLimit: { limit: 1_000_000, windowMs: 60_000 } });
  db = await openTestDb('pglite');
  const connections = new ConnectionStore({
    db: db.executor,
    secrets: new SecretBox({ current: randomBytes(32).toString('base64') }),
  });
  await db.executor.query('TRUNCATE workspace_connections CASCADE');
  await connections.saveKey(
    TEAM,
    {
      place: EVERYWHERE,
      apiKey: KEYS.all,
      baseUrl: sandbox.baseUrl,
      timeZone: 'America/Chicago',
      scopes: ['processing', 'accounting', 'direct_sales'],
      connectedBy: ADMIN,
    },
    new Date(NOW),
  );
  await connections.setAccounting(TEAM, { channels: [ALLOWED], directMessages: false }, new Date(NOW), 'slack');
  deps = {
    workspaces: connectedWorkspaceLinen({ connections }),
    connect: { connections, adminUserIds: [], allowedBaseUrls: [sandbox.baseUrl], defaultTimeZone: undefined },
    logger: createLogger({ level: 'error', write: () => {} }),
    now: () => NOW,
    commands: registry,
  };
}, 120_000);

afterAll(async () => {
  await deps?.workspaces.close();
  await db?.executor.query('TRUNCATE workspace_connections CASCADE');
  await db?.close();
  await sandbox?.close();
});

describe('a command added as one module', () => {
  it('parses by its word and alias, reads back from its canonical text, and answers bad input with its usage', () => {
    expect(registry.parse('owing Harborview Hotel')).toEqual({ kind: 'owing', customer: 'Harborview Hotel' });
    expect(registry.parse('OWES "Mercy General Hospital"')).toEqual({
      kind: 'owing',
      customer: 'Mercy General Hospital',
    });
    expect(registry.format(registry.parse('owes Mercy General Hospital'))).toBe('owing "Mercy General Hospital"');
    expect(registry.parse('owing')).toEqual({
      kind: 'usage',
      subcommand: 'owing',
      problem: 'Give a customer name or id.',
    });
    // The real registry, and so every platform, does not know it.
    expect(parseCommand('owing Harborview Hotel')).toEqual({ kind: 'unknown', typed: 'owing' });
  });

  it('answers with the connected key where accounting answers are allowed, to be shared', async () => {
    const customer = sandbox.data.customers.find((c) => c.name === 'Harborview Hotel')!;
    const open = sandbox.data.invoices.filter(
      (i) => i.customer_id === customer.id && (i.status === 'sent' || i.status === 'partially_paid'),
    );
    const answered = await ask('owing Harborview Hotel');
    expect(answered).toMatchObject({ outcome: 'answered', shareable: true, command: 'owing "Harborview Hotel"' });
    expect(said(answered?.content)).toContain(`Owing: Harborview Hotel`);
    expect(said(answered?.content)).toContain(`${open.length} open invoices`);
  });

  it('answers a bad argument with its own usage', async () => {
    const answered = await ask('owing');
    expect(answered?.outcome).toBe('answered');
    expect(said(answered?.content)).toContain('Give a customer name or id.');
    expect(said(answered?.content)).toContain('owing <customer>');
  });

  it('offers a choice among matching customers that replays it', async () => {
    const answered = await ask('owing Mercy');
    const replays = [...said(answered?.content).matchAll(/"command":"(owing [^"]+)"/g)].map((m) => m[1]);
    expect(replays.length).toBeGreaterThan(1);
    const replayed = await answerButton(
      replays[0]!,
      { orgId: TEAM, channelId: ALLOWED, userId: ADMIN, platform: 'slack', surface: PLAIN_SURFACE },
      deps,
    );
    expect(said(replayed.content)).toContain('Owing: ');
  });

  it('shows in help, and in the help that an unknown word gets', async () => {
    for (const typed of ['help', 'frobnicate']) {
      const help = said((await ask(typed))?.content);
      expect(help).toContain('owing <customer>');
      expect(help).toContain('How many invoices a customer has open.');
      expect(help).toContain('owing Harborview Hotel');
    }
  });

  it('is refused, as an accounting answer, in a channel an admin did not allow, and in direct messages', async () => {
    const refused = await ask('owing Harborview Hotel', OTHER);
    expect(refused?.outcome).toBe('refused');
    expect(said(refused?.content)).toContain('Accounting answers are not shown in this channel');
    const dm = await answerCommand(
      {
        text: 'owing Harborview Hotel',
        orgId: TEAM,
        channelId: 'D0DIRECT',
        privateChat: true,
        userId: ADMIN,
        platform: 'slack',
        surface: PLAIN_SURFACE,
        connection: platform,
      },
      deps,
    );
    expect(said(dm?.content)).toContain('Accounting answers are not shown in direct messages here');
    // An operational answer of the real registry is shown in that channel.
    expect((await ask('signals', OTHER))?.outcome).toBe('answered');
  });

  it('as an admins’ command, answers an admin and refuses anyone else with the platform’s sentence', async () => {
    expect(said((await ask('audit', OTHER, ADMIN))?.content)).toContain('Nobody asked anything.');
    const refused = await ask('audit', OTHER, MEMBER);
    expect(refused?.outcome).toBe('refused');
    expect(said(refused?.content)).toContain('Only the admins may do that.');
  });
});
