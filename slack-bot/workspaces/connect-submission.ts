/**
 * The `linen_connect` modal's submission: its fields read, the key connected (chat/connections/connect-key.ts),
 * and Slack answered with what the key can see (`response_action: update`), or one sentence on the field at fault
 * (`response_action: errors`). The key is never logged or echoed.
 */

import { type ConnectField, type ConnectKeyContext, connectKey } from '../../chat/connections/connect-key.ts';
import { EVERYWHERE } from '../../chat/connections/connection.ts';
import { ADMINS_ONLY } from '../admins.ts';
import { type ConnectMetadata, connectedView, FIELD } from '../connect-form.ts';
import { isSlackDirectMessage } from '../direct-message.ts';

type StateValue = { value?: string | null; selected_option?: { value?: string } | null };

export interface SubmittedView {
  private_metadata?: string;
  state: { values: Record<string, Record<string, StateValue>> };
}

export type ConnectSubmissionContext = Omit<ConnectKeyContext, 'platform' | 'adminsOnly'>;

export type SubmissionAnswer =
  | { response_action: 'errors'; errors: Record<string, string> }
  | { response_action: 'update'; view: ReturnType<typeof connectedView> };

const FIELD_OF: Record<ConnectField, string> = {
  apiKey: FIELD.apiKey,
  baseUrl: FIELD.baseUrl,
  timeZone: FIELD.timeZone,
};

function fieldValue(view: SubmittedView, field: string): string | undefined {
  const v = view.state.values[field]?.[field];
  const raw = v?.selected_option?.value ?? v?.value ?? undefined;
  const t = raw?.trim();
  return t ? t : undefined;
}

export async function submitConnect(view: SubmittedView, ctx: ConnectSubmissionContext): Promise<SubmissionAnswer> {
  let metadata: Partial<ConnectMetadata> = {};
  try {
    metadata = JSON.parse(view.private_metadata || '{}') as ConnectMetadata;
  } catch {
    // A modal without its metadata binds the workspace default.
  }
  const chosen = fieldValue(view, FIELD.place) ?? EVERYWHERE;
  // Only the default or the channel the modal was opened in: a forged place binds the default.
  const place =
    chosen !== EVERYWHERE && chosen === metadata.channelId && !isSlackDirectMessage(chosen) ? chosen : EVERYWHERE;
  const result = await connectKey(
    {
      apiKey: fieldValue(view, FIELD.apiKey),
      baseUrl: fieldValue(view, FIELD.baseUrl),
      timeZone: fieldValue(view, FIELD.timeZone),
      place,
    },
    { ...ctx, platform: 'slack', adminsOnly: ADMINS_ONLY },
  );
  if (!result.ok) return { response_action: 'errors', errors: { [FIELD_OF[result.field]]: result.sentence } };
  return {
    response_action: 'update',
    view: connectedView({
      lastFour: result.lastFour,
      place: result.place,
      customers: result.customers,
      scopes: result.scopes,
    }),
  };
}
