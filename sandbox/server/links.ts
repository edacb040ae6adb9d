/** Signed invoice PDF links: `{base_url}/files/invoice/{id}?key_id=…&expires=…&signature=…`, 15 minutes. */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { forbidden } from './errors.ts';

export const PDF_LINK_TTL_SECONDS = 15 * 60;

export class LinkSigner {
  constructor(private readonly secret: Buffer) {}

  private signature(invoiceId: string, keyId: string, expires: number): string {
    return createHmac('sha256', this.secret).update(`invoice-pdf\n${invoiceId}\n${keyId}\n${expires}`).digest('hex');
  }

  /** A fresh link for `keyId`, valid for 15 minutes from `nowMs`. */
  invoicePdfUrl(origin: string, invoiceId: string, keyId: string, nowMs: number): string {
    const expires = Math.floor(nowMs / 1000) + PDF_LINK_TTL_SECONDS;
    const q = new URLSearchParams({
      key_id: keyId,
      expires: String(expires),
      signature: this.signature(invoiceId, keyId, expires),
    });
    return `${origin}/v1/files/invoice/${encodeURIComponent(invoiceId)}?${q.toString()}`;
  }

  /** 403 unless the link was signed for this invoice and key and has not expired. */
  verify(
    invoiceId: string,
    bearerKeyId: string,
    link: { key_id: string; expires: number; signature: string },
    nowMs: number,
  ): void {
    const again = 'List the invoice again to get a fresh pdf_url.';
    const expected = Buffer.from(this.signature(invoiceId, link.key_id, link.expires), 'hex');
    const given = /^[0-9a-f]+$/i.test(link.signature) ? Buffer.from(link.signature, 'hex') : Buffer.alloc(0);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
      throw forbidden(`The PDF link signature is not valid. ${again}`);
    }
    if (link.key_id !== bearerKeyId) {
      throw forbidden(`The PDF link was issued to a different API key. ${again}`);
    }
    if (link.expires * 1000 <= nowMs) {
      throw forbidden(`The PDF link has expired. ${again}`);
    }
  }
}
