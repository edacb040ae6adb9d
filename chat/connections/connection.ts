/**
 * A workspace's connection to Linen: the keys an admin bound to places (the workspace default, or one channel)
 * and where accounting answers may appear. The keys themselves are only ever held sealed in the store; what
 * the bot shows of one is its last four characters.
 */

/** The workspace default key's place; any other place is a channel id. */
export const EVERYWHERE = '*';

export type Scope = 'processing' | 'accounting' | 'direct_sales';
export const SCOPES: readonly Scope[] = ['processing', 'accounting', 'direct_sales'];

/** A key as stored, without the key. */
export interface BoundKey {
  /** `EVERYWHERE` or a channel id. */
  place: string;
  /** `keyRefOf(key)`: the key's fingerprint (digests store it). */
  keyRef: string;
  lastFour: string;
  baseUrl: string;
  timeZone: string;
  /** The scopes the key had when it was checked. */
  scopes: Scope[];
  connectedBy: string;
  /** The connecting person's name, where the platform gave it (Teams). */
  connectedByName?: string | null | undefined;
  connectedAt: Date;
}

/** Where accounting answers (balance, invoices, PDFs, receivables digests) may appear. */
export interface AccountingAccess {
  /** Channel ids; empty (the default): no channel. */
  channels: string[];
  /** Direct messages with the app (default: no). */
  directMessages: boolean;
}

export interface WorkspaceConnection {
  orgId: string;
  keys: BoundKey[];
  accounting: AccountingAccess;
}

export const SAFE_ACCOUNTING_DEFAULT: AccountingAccess = { channels: [], directMessages: false };

/** The key bound to a channel: its own, else the workspace default. */
export function keyForChannel(connection: WorkspaceConnection, channelId: string): BoundKey | undefined {
  return connection.keys.find((k) => k.place === channelId) ?? connection.keys.find((k) => k.place === EVERYWHERE);
}

export function lastFourOf(apiKey: string): string {
  return apiKey.slice(-4);
}
