/**
 * An invoice's PDF delivered in the person's 1:1 chat with Linen, the way Teams lets a bot send a file: a file
 * consent card first; once the person accepts, Teams gives an upload address (in their OneDrive), the PDF is written
 * there and a file card posted. Whether accounting answers may appear was checked where the PDF button was pressed;
 * the consent card carries what to deliver signed with the bot's secret, so an accept cannot ask for another invoice.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import {
  type FileConsentCard,
  type FileInfoCard,
  type FileUploadInfo,
  MessageActivityInput,
} from '@microsoft/teams.api';
import { request } from 'undici';
import { type FetchedPdf, fetchInvoicePdf, pdfFileName } from '../chat/answers/invoice-pdf.ts';
import { Lru } from '../chat/connections/lru.ts';
import type { PdfRef } from '../chat/content/document.ts';
import type { LinenService } from '../chat/linen.ts';
import type { Connector } from './connector.ts';

/** What a consent card asks Teams to give back when the person accepts. */
export interface PdfConsent {
  ref: PdfRef;
  tenantId: string;
  userId: string;
  /** HMAC-SHA256 of the rest with the bot's secret. */
  sig: string;
}

const signatureOf = (secret: string, c: Omit<PdfConsent, 'sig'>) =>
  createHmac('sha256', secret)
    .update(JSON.stringify([c.ref.i, c.ref.c, c.ref.d, c.ref.n, c.tenantId, c.userId]))
    .digest('base64url');

export function signConsent(secret: string, c: Omit<PdfConsent, 'sig'>): PdfConsent {
  return { ...c, sig: signatureOf(secret, c) };
}

/** The consent as the bot signed it, or null (a forged or damaged one). */
export function verifiedConsent(secret: string, value: unknown): PdfConsent | null {
  const c = value as Partial<PdfConsent> | null;
  const ref = c?.ref as Partial<PdfRef> | undefined;
  if (
    !c ||
    !ref ||
    ![ref.i, ref.c, ref.d, ref.n, c.tenantId, c.userId, c.sig].every((v) => typeof v === 'string' && v !== '')
  )
    return null;
  const expected = Buffer.from(signatureOf(secret, c as PdfConsent));
  const given = Buffer.from(c.sig!);
  return expected.length === given.length && timingSafeEqual(expected, given) ? (c as PdfConsent) : null;
}

/** PDFs fetched for a consent, kept while the person decides (another replica fetches again). */
export class PendingPdfs {
  readonly #kept = new Lru<string, { pdf: FetchedPdf; until: number }>(200);
  keep(consent: PdfConsent, pdf: FetchedPdf): void {
    this.#kept.set(consent.sig, { pdf, until: Date.now() + 15 * 60_000 });
  }
  take(consent: PdfConsent): FetchedPdf | undefined {
    const k = this.#kept.get(consent.sig);
    this.#kept.delete(consent.sig);
    return k && k.until > Date.now() ? k.pdf : undefined;
  }
}

/** Fetches the PDF and asks the person, in their 1:1 chat, to accept it. */
export async function offerPdf(o: {
  linen: LinenService;
  connector: Connector;
  ref: PdfRef;
  tenantId: string;
  userId: string;
  secret: string;
  pending: PendingPdfs;
}): Promise<{ chatId: string; pdf: FetchedPdf }> {
  const pdf = await fetchInvoicePdf(o.linen, o.ref);
  const consent = signConsent(o.secret, { ref: o.ref, tenantId: o.tenantId, userId: o.userId });
  o.pending.keep(consent, pdf);
  const chatId = await o.connector.personalChat(o.userId, o.tenantId);
  await o.connector.send(
    chatId,
    new MessageActivityInput(undefined, { summary: `Invoice ${pdf.invoice.invoice_number} (PDF)` }).addAttachments({
      contentType: 'application/vnd.microsoft.teams.card.file.consent',
      name: pdfFileName(pdf.invoice),
      content: {
        description: `Invoice ${pdf.invoice.invoice_number}, as you asked from Linen.`,
        sizeInBytes: pdf.bytes.byteLength,
        acceptContext: consent,
        declineContext: { invoice: pdf.invoice.invoice_number },
      } satisfies FileConsentCard,
    }),
  );
  return { chatId, pdf };
}

/** Writes the PDF where Teams said (one request: the file is small) and posts its file card in the chat. */
export async function deliverPdf(o: {
  pdf: FetchedPdf;
  upload: FileUploadInfo;
  connector: Connector;
  chatId: string;
}): Promise<void> {
  const { pdf, upload } = o;
  const url = upload.uploadUrl ?? '';
  // Teams gives an https address; plain http only on this machine (a stand-in in tests).
  if (!url.startsWith('https://') && !/^http:\/\/(127\.0\.0\.1|localhost)[:/]/.test(url))
    throw new Error('Teams gave no upload address for the file');
  const bytes = Buffer.from(pdf.bytes);
  // The upload address is pre-authorized: no token of the bot's goes there.
  const res = await request(url, {
    method: 'PUT',
    headers: {
      'content-type': 'application/pdf',
      'content-length': String(bytes.length),
      'content-range': `bytes 0-${bytes.length - 1}/${bytes.length}`,
    },
    body: bytes,
    headersTimeout: 30_000,
    bodyTimeout: 30_000,
  });
  await res.body.dump();
  if (res.statusCode >= 300) throw new Error(`the upload was refused (HTTP ${res.statusCode})`);
  await o.connector.send(
    o.chatId,
    new MessageActivityInput(undefined, { summary: `Invoice ${pdf.invoice.invoice_number} (PDF)` }).addAttachments({
      contentType: 'application/vnd.microsoft.teams.card.file.info',
      contentUrl: upload.contentUrl,
      name: upload.name ?? pdfFileName(pdf.invoice),
      content: { uniqueId: upload.uniqueId, fileType: upload.fileType ?? 'pdf' } satisfies FileInfoCard,
    }),
  );
}
