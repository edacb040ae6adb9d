/** Invoice PDFs, rendered on demand with pdf-lib and never stored. */
import { formatInTimeZone } from 'date-fns-tz';
import { PDFDocument, rgb, StandardFonts } from 'pdf-lib';
import type { Invoice, Organization } from './model.ts';

const STATUS_LABELS: Record<string, string> = { sent: 'Sent', partially_paid: 'Partially paid', paid: 'Paid' };

/** Standard PDF fonts only encode WinAnsi; anything else is replaced. */
function printable(text: string): string {
  return text.normalize('NFC').replace(/[^\x20-\x7e\xa0-\xff]/g, '?');
}

export function formatMoney(cents: number, currency: string): string {
  const code = currency.toUpperCase();
  try {
    return new Intl.NumberFormat('en-US', { style: 'currency', currency: code, currencyDisplay: 'code' })
      .format(cents / 100)
      .replace(/\u00a0/g, ' ');
  } catch {
    return `${code} ${(cents / 100).toFixed(2)}`;
  }
}

function formatDay(timestamp: string | null, timeZone: string): string {
  return timestamp === null ? 'No payment terms' : formatInTimeZone(new Date(timestamp), timeZone, 'MMMM d, yyyy');
}

export async function renderInvoicePdf(
  invoice: Invoice,
  organization: Organization,
  customerName: string,
): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const issued = new Date(invoice.issued_at);
  doc.setTitle(`Invoice ${invoice.invoice_number}`);
  doc.setAuthor(printable(organization.name));
  doc.setSubject(printable(`Invoice for ${customerName}`));
  doc.setCreator('linen-connect sandbox');
  doc.setProducer('linen-connect sandbox');
  doc.setCreationDate(issued);
  doc.setModificationDate(issued);

  const page = doc.addPage([612, 792]);
  const regular = await doc.embedFont(StandardFonts.Helvetica);
  const bold = await doc.embedFont(StandardFonts.HelveticaBold);
  const ink = rgb(0.13, 0.15, 0.2);
  const muted = rgb(0.42, 0.45, 0.5);
  const left = 56;
  const right = 556;
  let y = 730;

  const text = (value: string, x: number, size: number, font = regular, color = ink) =>
    page.drawText(printable(value), { x, y, size, font, color });
  const rightText = (value: string, size: number, font = regular, color = ink) => {
    const v = printable(value);
    page.drawText(v, { x: right - font.widthOfTextAtSize(v, size), y, size, font, color });
  };

  text(organization.name, left, 20, bold);
  rightText('INVOICE', 20, bold, muted);
  y -= 26;
  rightText(invoice.invoice_number, 12, bold);
  y -= 40;

  const tz = organization.time_zone;
  const facts: [string, string][] = [
    ['Bill to', customerName],
    ['Invoice number', invoice.invoice_number],
    ['Issued', formatDay(invoice.issued_at, tz)],
    ['Due', formatDay(invoice.due_at, tz)],
    ['Status', STATUS_LABELS[invoice.status] ?? invoice.status],
    ['Currency', invoice.currency.toUpperCase()],
  ];
  if (invoice.paid_at) facts.splice(4, 0, ['Paid', formatDay(invoice.paid_at, tz)]);
  for (const [label, value] of facts) {
    text(label, left, 10, regular, muted);
    text(value, left + 120, 11);
    y -= 18;
  }

  y -= 20;
  page.drawLine({ start: { x: left, y: y + 10 }, end: { x: right, y: y + 10 }, thickness: 0.75, color: muted });
  y -= 10;
  const amounts: [string, number, boolean][] = [
    ['Subtotal', invoice.subtotal_cents, false],
    ['Surcharges', invoice.surcharges_cents, false],
    ['Tax', invoice.tax_cents, false],
    ['Total', invoice.total_cents, true],
    ['Balance due', invoice.balance_cents, true],
  ];
  for (const [label, cents, strong] of amounts) {
    const font = strong ? bold : regular;
    text(label, left + 260, 11, font);
    rightText(formatMoney(cents, invoice.currency), 11, font);
    y -= 20;
  }

  y = 60;
  text(`Times are shown in ${tz}. Amounts in ${invoice.currency.toUpperCase()}.`, left, 8, regular, muted);
  return doc.save();
}
