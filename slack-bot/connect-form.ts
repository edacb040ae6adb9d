/**
 * The `/linen connect` modal (callback_id `linen_connect`): the key, the API address (only the addresses the
 * operator allows), the organization's timezone and, typed in a channel, whether the key is the workspace
 * default or this channel's only. After a successful check the modal is replaced by what the key can see.
 */

import { EVERYWHERE, SCOPES, type Scope } from '../chat/connections/connection.ts';
import type { Customer } from '../shared/schemas/customers.ts';
import { LIMITS, truncate } from './blocks/limits.ts';
import { escLine, plain } from './blocks/mrkdwn.ts';
import { isSlackDirectMessage } from './direct-message.ts';

export const CONNECT_CALLBACK = 'linen_connect';
export const FIELD = { apiKey: 'api_key', baseUrl: 'base_url', timeZone: 'timezone', place: 'place' } as const;

const SCOPE_NAMES: Record<Scope, string> = {
  processing: 'processing',
  accounting: 'accounting',
  direct_sales: 'direct sales',
};

/** What the modal carries from the command to its submission. */
export interface ConnectMetadata {
  channelId: string;
}

const text = (t: string) => ({ type: 'plain_text' as const, text: t, emoji: true });
const option = (label: string, value: string) => ({ text: text(truncate(label, 75)), value });

export interface ConnectModalOptions {
  channelId: string;
  allowedBaseUrls: readonly string[];
  /** Left empty when undefined: the admin types it. */
  defaultTimeZone: string | undefined;
}

export function connectModal(o: ConnectModalOptions) {
  const urls = o.allowedBaseUrls.map((u) => option(u, u));
  const inChannel = !isSlackDirectMessage(o.channelId);
  const places = [
    option('Every channel (the workspace default)', EVERYWHERE),
    option('Only the channel where I typed /linen connect', o.channelId),
  ];
  const metadata: ConnectMetadata = { channelId: o.channelId };
  return {
    type: 'modal' as const,
    callback_id: CONNECT_CALLBACK,
    private_metadata: JSON.stringify(metadata),
    title: text('Connect Linen'),
    submit: text('Connect'),
    close: text('Cancel'),
    blocks: [
      {
        type: 'input',
        block_id: FIELD.apiKey,
        label: text('Linen API key'),
        hint: text('Checked with the Linen API before it is saved. Only its last four characters are ever shown.'),
        element: { type: 'plain_text_input', action_id: FIELD.apiKey, placeholder: text('lk_live_…') },
      },
      {
        type: 'input',
        block_id: FIELD.baseUrl,
        optional: true,
        label: text('API address'),
        element: { type: 'static_select', action_id: FIELD.baseUrl, options: urls, initial_option: urls[0] },
      },
      {
        type: 'input',
        block_id: FIELD.timeZone,
        label: text("Your organization's timezone"),
        hint: text('An IANA timezone such as America/Chicago: "yesterday" and digest times are its days.'),
        element: {
          type: 'plain_text_input',
          action_id: FIELD.timeZone,
          ...(o.defaultTimeZone ? { initial_value: o.defaultTimeZone } : {}),
        },
      },
      ...(inChannel
        ? [
            {
              type: 'input',
              block_id: FIELD.place,
              label: text('Use this key in'),
              element: { type: 'radio_buttons', action_id: FIELD.place, options: places, initial_option: places[0] },
            },
          ]
        : []),
    ],
  };
}

export interface ConnectedSummary {
  lastFour: string;
  place: string;
  customers: readonly Customer[];
  scopes: readonly Scope[];
}

/** The modal after the key was saved: what it can see. */
export function connectedView(s: ConnectedSummary) {
  const where = s.place === EVERYWHERE ? 'every channel without a key of its own' : `<#${s.place}> only`;
  const names = s.customers.map((c) => c.name);
  const shown = names.slice(0, 20).map(escLine).join(', ');
  const more = names.length > 20 ? ` and ${names.length - 20} more` : '';
  const works = SCOPES.map(
    (sc) => `${s.scopes.includes(sc) ? ':white_check_mark:' : ':no_entry_sign:'} ${SCOPE_NAMES[sc]}`,
  );
  const mrkdwn = (t: string) => ({ type: 'section', text: { type: 'mrkdwn', text: truncate(t, LIMITS.sectionText) } });
  return {
    type: 'modal' as const,
    callback_id: CONNECT_CALLBACK,
    title: text('Linen connected'),
    close: text('Done'),
    blocks: [
      mrkdwn(`Connected the key ending in *${plain(s.lastFour)}* for ${where}.`),
      mrkdwn(
        names.length
          ? `It sees ${names.length} customer${names.length === 1 ? '' : 's'}: ${shown}${more}.`
          : 'It sees no customers yet.',
      ),
      mrkdwn(works.join('   ')),
      {
        type: 'context',
        elements: [
          {
            type: 'mrkdwn',
            text: 'Accounting answers (balance, invoices, purchase orders, PDFs) appear only in channels an admin allows with `/linen access accounting allow`, and not in direct messages unless allowed.',
          },
        ],
      },
    ],
  };
}
