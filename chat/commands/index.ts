/**
 * Every command, in help order: one module each (`<name>.ts`). The grammar, `answer()`, help and usage, the access
 * rules, the console and the platforms' command menus (scripts/manifests.ts) all read this list.
 */
import { accessCommand } from './access.ts';
import { adminsCommand } from './admins.ts';
import { alertCommand } from './alert.ts';
import { balanceCommand } from './balance.ts';
import { connectCommand } from './connect.ts';
import { digestCommand } from './digest.ts';
import { disconnectCommand } from './disconnect.ts';
import { fillrateCommand } from './fillrate.ts';
import { helpCommand } from './help.ts';
import { homeCommand } from './home.ts';
import { invoicesCommand } from './invoices.ts';
import { manifestCommand } from './manifest.ts';
import { orderCommand } from './order.ts';
import { poCommand } from './po.ts';
import { createRegistry } from './registry.ts';
import { rewashCommand } from './rewash.ts';
import { shortCommand } from './short.ts';
import { signalsCommand } from './signals.ts';
import { statusCommand } from './status.ts';
import { ticketCommand } from './ticket.ts';
import { ticketsCommand } from './tickets.ts';

export const COMMANDS = [
  helpCommand,
  homeCommand,
  balanceCommand,
  invoicesCommand,
  poCommand,
  signalsCommand,
  shortCommand,
  ticketCommand,
  ticketsCommand,
  fillrateCommand,
  rewashCommand,
  manifestCommand,
  orderCommand,
  digestCommand,
  alertCommand,
  connectCommand,
  disconnectCommand,
  statusCommand,
  adminsCommand,
  accessCommand,
] as const;

/** The registry every platform answers with (each with the commands offered on it: `forPlatform`). */
export const COMMAND_REGISTRY = createRegistry(COMMANDS);

/** The commands answered with a Linen key (what the grammar's answers know; the rest manage the connection). */
export const SUBCOMMANDS = COMMAND_REGISTRY.modules.filter((m) => !m.connection).map((m) => m.name);

/** The commands that manage an organization's connection: answered before a key is looked up. */
export const CONNECTION_WORDS = COMMAND_REGISTRY.modules.filter((m) => m.connection).map((m) => m.name);
