/**
 * Every scheduled digest kind, one module each, in the order the help lists them; the first is the kind of a
 * subscription that names none. To add a kind: write its module beside these (`defineDigestKind`, see `kind.ts`)
 * and list it here.
 */
import { budgetsDigest } from './budgets.ts';
import { digestHelp } from './help.ts';
import { receivablesDigest } from './receivables.ts';
import { createDigestKinds, type DigestKinds } from './registry.ts';
import { shortfallDigest } from './shortfall.ts';
import { ticketsDigest } from './tickets.ts';

const KINDS = [shortfallDigest, receivablesDigest, ticketsDigest, budgetsDigest] as const;

/** A digest kind's stored name: `shortfall`, `receivables`, `tickets`, `budgets`. */
export type DigestKind = (typeof KINDS)[number]['name'];

/** The service's digest kinds. */
export const DIGEST_KINDS: DigestKinds = createDigestKinds(KINDS);

/** The `digest` command's help (usage, description, examples), for the command's module and the help views. */
export const DIGEST_COMMAND_HELP = digestHelp(DIGEST_KINDS);

export { defineDigestKind } from './kind.ts';
export { createDigestKinds, type DigestKinds, UnknownDigestKindError } from './registry.ts';
