/** Signed invoice PDF links: both the signature and the bearer key are needed, and links expire. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../sandbox/index.ts';
import { type ApiResponse, call, expectError, KEYS, startTestSandbox } from '../support/sandbox-http.ts';

let sandbox: Sandbox;
let clock = Date.parse('2026-11-05T15:00:00.000Z');
beforeAll(async () => {
  sandbox = await startTestSandbox({ now: () => clock });
});
afterAll(() => sandbox.close());

async function fetchPdf(url: string, key: string | null): Promise<ApiResponse> {
  const headers: Record<string, string> = key ? { authorization: `Bearer ${key}` } : {};
  const res = await fetch(url, { headers });
  const type = res.headers.get('content-type') ?? '';
  const body = type.includes('json') ? await res.json() : Buffer.from(await res.arrayBuffer());
  return { status: res.status, headers: res.headers, body };
}

/** An invoice of Mercy General Hospital, which both accounting keys can see. */
async function mercyInvoice(key: string) {
  const mercy = sandbox.data.customers.find((c) => c.name === 'Mercy General Hospital')!;
  const res = await call(sandbox, '/invoices', { key, query: { customer_id: mercy.id, limit: '1' } });
  return res.body.data[0];
}

describe('invoice PDF links', () => {
  it('carry a key identifier, an expiry about 15 minutes ahead and a signature, and never the key', async () => {
    const invoice = await mercyInvoice(KEYS.all);
    const url = new URL(invoice.pdf_url);
    expect(url.origin).toBe(sandbox.origin);
    expect(url.pathname).toBe(`/v1/files/invoice/${invoice.id}`);
    expect([...url.searchParams.keys()].sort()).toEqual(['expires', 'key_id', 'signature']);
    const expires = Number(url.searchParams.get('expires'));
    expect(expires * 1000 - clock).toBeGreaterThan(14 * 60_000);
    expect(expires * 1000 - clock).toBeLessThanOrEqual(15 * 60_000);
    expect(invoice.pdf_url).not.toContain(KEYS.all);
  });

  it('return a real PDF of the invoice with the bearer key', async () => {
    const invoice = await mercyInvoice(KEYS.mercyBilling);
    const res = await fetchPdf(invoice.pdf_url, KEYS.mercyBilling);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/pdf');
    const pdf: Buffer = res.body;
    expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect(pdf.subarray(-6).toString('latin1')).toContain('%%EOF');
    expect(pdf.length).toBeGreaterThan(1000);
  });

  it('need the bearer key', async () => {
    const invoice = await mercyInvoice(KEYS.all);
    expectError(await fetchPdf(invoice.pdf_url, null), 401, 'unauthorized');
    expectError(await fetchPdf(invoice.pdf_url, KEYS.revoked), 401, 'unauthorized');
  });

  it('re-check the accounting scope and the customer at fetch time', async () => {
    const invoice = await mercyInvoice(KEYS.all);
    expectError(await fetchPdf(invoice.pdf_url, KEYS.mercyOps), 403, 'forbidden');
    const west = sandbox.data.customers.find((c) => c.name === 'Mercy West Surgery Center')!;
    const westInvoice = (await call(sandbox, '/invoices', { query: { customer_id: west.id, limit: '1' } })).body
      .data[0];
    expectError(await fetchPdf(westInvoice.pdf_url, KEYS.mercyBilling), 404, 'not_found');
  });

  it('refuse a link signed for another key', async () => {
    const invoice = await mercyInvoice(KEYS.all);
    expectError(await fetchPdf(invoice.pdf_url, KEYS.mercyBilling), 403, 'forbidden');
  });

  it('refuse a tampered link', async () => {
    const invoice = await mercyInvoice(KEYS.all);
    const url = new URL(invoice.pdf_url);
    const signature = url.searchParams.get('signature')!;
    url.searchParams.set('signature', (signature[0] === 'a' ? 'b' : 'a') + signature.slice(1));
    expectError(await fetchPdf(url.href, KEYS.all), 403, 'forbidden');

    const later = new URL(invoice.pdf_url);
    later.searchParams.set('expires', String(Number(later.searchParams.get('expires')) + 3600));
    expectError(await fetchPdf(later.href, KEYS.all), 403, 'forbidden');

    const other = await call(sandbox, '/invoices', { query: { limit: '2' } });
    const swapped = new URL(invoice.pdf_url);
    swapped.pathname = `/v1/files/invoice/${other.body.data.find((i: any) => i.id !== invoice.id).id}`;
    expectError(await fetchPdf(swapped.href, KEYS.all), 403, 'forbidden');
  });

  it('refuse a link without its signature parameters', async () => {
    const invoice = await mercyInvoice(KEYS.all);
    const url = new URL(invoice.pdf_url);
    url.search = '';
    expectError(await fetchPdf(url.href, KEYS.all), 422, 'invalid_params');
  });

  it('expire after about 15 minutes', async () => {
    const invoice = await mercyInvoice(KEYS.all);
    clock += 14 * 60_000;
    expect((await fetchPdf(invoice.pdf_url, KEYS.all)).status).toBe(200);
    clock += 2 * 60_000;
    const expired = await fetchPdf(invoice.pdf_url, KEYS.all);
    expectError(expired, 403, 'forbidden');
    expect(expired.body.error.message).toMatch(/expired/i);
  });
});
