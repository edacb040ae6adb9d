/**
 * The connect form, as an Adaptive Card in the admin's 1:1 chat: the Linen API key (a masked field), the API address
 * (only those the operator allows) and the organization's timezone, submitted with `Action.Execute` (verb
 * `linen_connect`). The bot answers the submission with the card that replaces it: what the key can see once it is
 * checked and saved, or the form again with one sentence on the field at fault (the key field left empty: it is never
 * sent back).
 */
import type { IAdaptiveCard, IRichTextBlock, ITextRun } from '@microsoft/teams.cards';
import type { ConnectField } from '../chat/connections/connect-key.ts';
import type { Scope } from '../chat/connections/connection.ts';
import type { Customer } from '../shared/schemas/customers.ts';

export const CONNECT_VERB = 'linen_connect';
export const INPUT = { apiKey: 'api_key', baseUrl: 'base_url', timeZone: 'timezone' } as const;

const SCOPE_NAMES: Record<Scope, string> = {
  processing: 'processing',
  accounting: 'accounting',
  direct_sales: 'direct sales',
};

const line = (text: string, style: Partial<ITextRun> = {}): IRichTextBlock => ({
  type: 'RichTextBlock',
  inlines: [{ type: 'TextRun', text, ...style }],
});

export interface ConnectFormOptions {
  allowedBaseUrls: readonly string[];
  timeZone: string | undefined;
  /** The last submission's problem, shown on its field. */
  problem?: { field: ConnectField; sentence: string } | undefined;
  /** What was submitted (never the key). */
  values?: { baseUrl?: string | undefined; timeZone?: string | undefined } | undefined;
}

export function connectForm(o: ConnectFormOptions): IAdaptiveCard {
  const error = (field: ConnectField) =>
    o.problem?.field === field ? [line(`⚠️ ${o.problem.sentence}`, { color: 'Attention' })] : [];
  const baseUrl = o.values?.baseUrl ?? o.allowedBaseUrls[0] ?? '';
  return {
    type: 'AdaptiveCard',
    version: '1.5',
    body: [
      line('Connect Linen', { weight: 'Bolder', size: 'Medium' }),
      line(
        "Your organization's Linen API key is checked with the Linen API before it is saved, stored encrypted, and never shown again: only its last four characters.",
        { isSubtle: true },
      ),
      {
        type: 'Input.Text',
        id: INPUT.apiKey,
        label: 'Linen API key',
        placeholder: 'lk_live_…',
        style: 'Password',
        isRequired: true,
        errorMessage: 'Paste the Linen API key.',
      },
      ...error('apiKey'),
      {
        type: 'Input.ChoiceSet',
        id: INPUT.baseUrl,
        label: 'API address',
        style: 'compact',
        value: baseUrl,
        choices: o.allowedBaseUrls.map((u) => ({ title: u, value: u })),
      },
      ...error('baseUrl'),
      {
        type: 'Input.Text',
        id: INPUT.timeZone,
        label: "The organization's timezone (IANA, e.g. America/Chicago)",
        value: o.values?.timeZone ?? o.timeZone ?? '',
        placeholder: 'America/Chicago',
      },
      ...error('timeZone'),
      {
        type: 'ActionSet',
        actions: [{ type: 'Action.Execute', title: 'Connect', verb: CONNECT_VERB, data: { linen: CONNECT_VERB } }],
      },
    ],
  };
}

export interface ConnectedOptions {
  lastFour: string;
  customers: readonly Customer[];
  scopes: readonly Scope[];
}

/** What replaces the form once the key is saved. */
export function connectedCard(o: ConnectedOptions): IAdaptiveCard {
  const names = o.customers.slice(0, 15).map((c) => c.name.replace(/\s*\n\s*/g, ' '));
  const more = o.customers.length - names.length;
  const scopes = (['processing', 'accounting', 'direct_sales'] as const).map(
    (s) => `${o.scopes.includes(s) ? '✅' : '🚫'} ${SCOPE_NAMES[s]}`,
  );
  return {
    type: 'AdaptiveCard',
    version: '1.5',
    body: [
      line('Linen is connected', { weight: 'Bolder', size: 'Medium' }),
      line(`The key ending in …${o.lastFour} is saved for your organization.`),
      line(`Scopes: ${scopes.join('  ')}`),
      line(
        o.customers.length
          ? `Customers it sees (${o.customers.length}): ${names.join(', ')}${more ? `, and ${more} more` : ''}.`
          : 'It sees no customer yet.',
      ),
      line(
        'Accounting answers (balance, invoices, purchase orders, their digests) appear nowhere until an admin allows them: “access accounting allow” in a channel, “access accounting dms on” for 1:1 chats.',
        { isSubtle: true },
      ),
    ],
  };
}
