/**
 * Delivering an invoice PDF privately in Slack: uploaded into the user's direct-message conversation with the app.
 */
import type { WebClient } from '@slack/web-api';
import { type FetchedPdf, pdfFileName } from '../chat/answers/invoice-pdf.ts';

/** Upload the PDF into the user's DM with the app (conversations.open + files.uploadV2). */
export async function uploadPrivately(
  slack: WebClient,
  userId: string,
  pdf: FetchedPdf,
): Promise<{ channelId: string }> {
  const opened = await slack.conversations.open({ users: userId });
  const channelId = opened.channel?.id;
  if (!channelId) throw new Error('conversations.open returned no channel');
  const filename = pdfFileName(pdf.invoice);
  await slack.files.uploadV2({
    channel_id: channelId,
    file: Buffer.from(pdf.bytes),
    filename,
    title: `Invoice ${pdf.invoice.invoice_number}`,
    initial_comment: `Invoice ${pdf.invoice.invoice_number}, as you asked from /linen balance.`,
  });
  return { channelId };
}
