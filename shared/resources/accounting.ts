import type { CallDef } from '../core/defs.ts';
import { send } from '../core/send.ts';
import { ConfigurationError, ResponseShapeError } from '../errors.ts';
import { P, type ParamsOf } from '../params.ts';
import {
  BalanceRowSchema,
  INVOICE_STATUSES,
  InvoiceSchema,
  PaymentSchema,
  PO_STATUSES,
  PurchaseOrderSchema,
} from '../schemas/accounting.ts';
import { type ParsedUrl, parseUrl } from '../url.ts';
import { COMMON, DATED, failedCall, listsIn, type ResourceContext } from './define.ts';

const SCOPE = 'accounting';

const invoiceParams = { ...DATED, status: P.oneOf(INVOICE_STATUSES) };
const paymentParams = { ...DATED };
const balanceParams = { ...COMMON };
const poParams = { ...DATED, status: P.oneOf(PO_STATUSES) };

export type InvoiceListParams = ParamsOf<typeof invoiceParams>;
export type PaymentListParams = ParamsOf<typeof paymentParams>;
export type BalanceListParams = ParamsOf<typeof balanceParams>;
export type PurchaseOrderListParams = ParamsOf<typeof poParams>;

export function invoicesResource(ctx: ResourceContext) {
  return {
    /** GET /invoices (sent, partially paid and paid only); `from`/`to` filter on the issued day. */
    list: listsIn(ctx, SCOPE)('/invoices', InvoiceSchema, invoiceParams),
  };
}

export function paymentsResource(ctx: ResourceContext) {
  return {
    /** GET /payments; `from`/`to` filter on the received day. */
    list: listsIn(ctx, SCOPE)('/payments', PaymentSchema, paymentParams),
  };
}

export function balanceResource(ctx: ResourceContext) {
  return {
    /** GET /balance: open balance and aging, one row per visible customer. */
    list: listsIn(ctx, SCOPE)('/balance', BalanceRowSchema, balanceParams),
  };
}

export function purchaseOrdersResource(ctx: ResourceContext) {
  return {
    /** GET /purchase-orders; `from`/`to` filter on the started day. */
    list: listsIn(ctx, SCOPE)('/purchase-orders', PurchaseOrderSchema, poParams),
  };
}

/**
 * Check a `pdf_url` before anything is sent: the bearer key only ever goes to the configured origin.
 * Returns the URL to fetch.
 */
export function checkPdfUrl(ctx: Pick<ResourceContext, 'origin'>, pdfUrl: unknown): string {
  if (typeof pdfUrl !== 'string' || pdfUrl === '') {
    throw new ConfigurationError(
      'pdfUrl must be the pdf_url of an invoice row',
      "Give the invoice's pdf_url as listed by the API.",
    );
  }
  let url: ParsedUrl;
  try {
    url = parseUrl(pdfUrl);
  } catch {
    throw new ConfigurationError(
      `pdfUrl is not an absolute URL: ${pdfUrl}`,
      "Give the invoice's pdf_url as listed by the API.",
    );
  }
  if (url.origin !== ctx.origin) {
    throw new ConfigurationError(
      `Refusing to send the API key to ${url.origin}: the PDF link's origin differs from the configured base URL's origin (${ctx.origin}).`,
      `This PDF link points to ${url.origin}, not to the configured Linen API (${ctx.origin}); it was not opened.`,
    );
  }
  return url.href;
}

export function filesResource(ctx: ResourceContext) {
  return {
    /**
     * Download an invoice PDF through the invoice's `pdf_url` (valid about 15 minutes; list the invoice again
     * when it has expired). A link to another origin than the base URL's is refused before anything is sent.
     */
    invoicePdf: (pdfUrl: string): CallDef<Uint8Array> => {
      const endpoint = 'GET /files/invoice/{id}';
      let url: string;
      try {
        url = checkPdfUrl(ctx, pdfUrl);
      } catch (e) {
        return failedCall(endpoint, e);
      }
      return {
        kind: 'call',
        endpoint,
        *op(budget) {
          return yield* send(
            ctx,
            {
              endpoint,
              url,
              responseType: 'bytes',
              // A 403 here is usually an expired link rather than a missing scope: keep the API's wording.
              scope: undefined,
              parse: (res) => {
                const type = res.headers['content-type'];
                if (type !== undefined && !/application\/pdf/i.test(type)) {
                  throw new ResponseShapeError({
                    endpoint,
                    field: 'content-type',
                    detail: `expected application/pdf, got ${type}`,
                    requestId: res.headers['x-request-id'],
                  });
                }
                if (typeof res.body === 'string') {
                  throw new ResponseShapeError({
                    endpoint,
                    field: '(body)',
                    detail: 'the transport returned text for a PDF',
                    requestId: res.headers['x-request-id'],
                  });
                }
                return res.body;
              },
            },
            budget,
          );
        },
      };
    },
  };
}
