/**
 * The answer to a PDF's consent card: accepted, the PDF is written where Teams says and its file card posted in the
 * 1:1 chat; declined, nothing is sent. The consent must be one the bot signed, for the person who answers it.
 */
import type { IFileConsentInvokeActivity } from '@microsoft/teams.api';
import type { App, IActivityContext } from '@microsoft/teams.apps';
import { fetchInvoicePdf } from '../../chat/answers/invoice-pdf.ts';
import { errorView } from '../../chat/views/common.ts';
import { deliverPdf, verifiedConsent } from '../pdf.ts';
import { placeOf } from '../place.ts';
import { afterAcknowledging, post } from './answering.ts';
import type { TeamsDeps } from './index.ts';

async function accepted(ctx: IActivityContext<IFileConsentInvokeActivity>, deps: TeamsDeps): Promise<void> {
  const place = placeOf(ctx);
  const consent = verifiedConsent(deps.teams.clientSecret, ctx.activity.value?.context);
  if (!consent || consent.userId !== place.person.id || consent.tenantId !== place.tenantId) {
    deps.logger.info('ignored a Teams file consent the bot did not sign for this person');
    await post(deps, place, errorView('That file offer is out of date; press PDF again.'), 'pdf');
    return;
  }
  let pdf = deps.pending.take(consent);
  if (!pdf) {
    // Offered by another replica, or long ago: the tenant's key reads it again (its signed link lasts 15 minutes).
    const r = await deps.place.workspaces.for({
      orgId: place.tenantId,
      channelId: place.channelId,
      privateChat: true,
    });
    if (r.kind === 'not-connected') {
      await post(deps, place, errorView('Linen is no longer connected for your organization.'), 'pdf');
      return;
    }
    pdf = await fetchInvoicePdf(r.linen, consent.ref);
  }
  await deliverPdf({
    pdf,
    upload: ctx.activity.value?.uploadInfo ?? {},
    connector: deps.connectorFor(place.serviceUrl),
    chatId: place.conversationId,
  });
  deps.logger.info(`sent the PDF of ${consent.ref.n} (${pdf.bytes.byteLength} bytes) to ${place.person.id}`);
}

export function register(app: App, deps: TeamsDeps): void {
  app.on('file.consent.accept', async (ctx) => {
    afterAcknowledging(deps, 'PDF delivery', () =>
      accepted(ctx, deps).catch(async (err: unknown) => {
        deps.logger.warn(`a Teams PDF delivery failed: ${(err as Error).name}: ${(err as Error).message}`);
        await post(
          deps,
          placeOf(ctx),
          errorView('The PDF could not be delivered just now; press PDF again in a minute.'),
          'pdf',
        );
      }),
    );
  });
  app.on('file.consent.decline', async () => {
    deps.logger.debug('a Teams PDF offer was declined');
  });
}

export default { register };
