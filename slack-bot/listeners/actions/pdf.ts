/**
 * Delivering an invoice PDF privately. The `pdf_url` needs the bearer key, so a link would not open for
 * the user: the bot lists the invoice again (its signed link lasts 15 minutes), downloads the PDF with the
 * shared client and uploads it into the user's direct-message conversation with the app.
 */
import type { WebClient } from '@slack/web-api';
import type { LinenService } from '../../../chat/linen.ts';
import type { PdfRef } from '../../../chat/views/balance.ts';
import { NotFoundError } from '../../../shared/errors.ts';
import type { Invoice } from '../../../shared/schemas/accounting.ts';

export interface FetchedPdf {
  invoice: Invoice;
  bytes: Uint8Array;
}

/** The invoice, listed again for a fresh link, and its PDF bytes. */
export async function fetchInvoicePdf(linen: LinenService, ref: PdfRef): Promise<FetchedPdf> {
  const client = linen.client;
  let invoice: Invoice | undefined;
  for await (const inv of client.invoices.list({ customerId: ref.c, from: ref.d, to: ref.d })) {
    if (inv.id === ref.i) {
      invoice = inv;
      break;
    }
  }
  if (!invoice) {
    throw new NotFoundError({
      status: 404,
      code: 'not_found',
      message: `invoice ${ref.n} is no longer listed`,
      requestId: undefined,
    });
  }
  const bytes = await client.files.invoicePdf(invoice.pdf_url);
  return { invoice, bytes };
}

/** Upload the PDF into the user's DM with the app (conversations.open + files.uploadV2). */
export async function uploadPrivately(
  slack: WebClient,
  userId: string,
  pdf: FetchedPdf,
): Promise<{ channelId: string }> {
  const opened = await slack.conversations.open({ users: userId });
  const channelId = opened.channel?.id;
  if (!channelId) throw new Error('conversations.open returned no channel');
  const filename = `${pdf.invoice.invoice_number.replace(/[^A-Za-z0-9._-]/g, '_')}.pdf`;
  await slack.files.uploadV2({
    channel_id: channelId,
    file: Buffer.from(pdf.bytes),
    filename,
    title: `Invoice ${pdf.invoice.invoice_number}`,
    initial_comment: `Invoice ${pdf.invoice.invoice_number}, as you asked from /linen balance.`,
  });
  return { channelId };
}
