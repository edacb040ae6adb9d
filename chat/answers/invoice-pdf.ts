/**
 * An invoice's PDF, fetched for a person. The `pdf_url` needs the bearer key, so a link would not open for them:
 * the invoice is listed again (its signed link lasts 15 minutes) and the PDF downloaded with the shared client;
 * each platform then delivers the bytes privately.
 */
import { NotFoundError } from '../../shared/errors.ts';
import type { Invoice } from '../../shared/schemas/accounting.ts';
import type { PdfRef } from '../content/document.ts';
import type { LinenService } from '../linen.ts';

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

/** A file name for the invoice's PDF: its number, with nothing a file system could misread. */
export const pdfFileName = (invoice: Invoice) => `${invoice.invoice_number.replace(/[^A-Za-z0-9._-]/g, '_')}.pdf`;
