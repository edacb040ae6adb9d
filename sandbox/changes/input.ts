/**
 * The bodies of the change controls (the same objects the in-process methods take), and their validation:
 * a body that does not fit its schema is a 422 whose message names the first field that is off, in one sentence.
 */
import * as z from 'zod';
import { isLocalDate } from '../server/dates.ts';
import { invalidParams } from '../server/errors.ts';

const id = z.string().min(1);
const day = z.string().refine(isLocalDate, 'must be a calendar day as YYYY-MM-DD');
const pieces = z.number().int().min(0);
const cents = z.number().int().min(1);
const oneLine = (max: number) =>
  z
    .string()
    .min(1)
    .max(max)
    .refine((s) => !/[\r\n]/.test(s) && s.trim() === s, 'must be one line without leading or trailing spaces');

const COUNT_STATUSES = ['pending', 'in_progress', 'counted', 'verified', 'assumed'] as const;
const countLine = z.strictObject({
  item_id: id,
  on_hand: pieces.optional(),
  delivered: pieces.optional(),
  extra: pieces.optional(),
  returned: pieces.optional(),
});
const countLines = z.array(countLine).max(100);

export const addCartCountInput = z.strictObject({
  cart_id: id,
  date: day.optional(),
  status: z.enum(COUNT_STATUSES).optional(),
  lines: countLines.optional(),
});

export const changeCartCountInput = z.strictObject({
  status: z.enum(COUNT_STATUSES).optional(),
  lines: countLines.optional(),
});

export const closeCountShortInput = z.strictObject({
  cart_id: id,
  date: day.optional(),
  item_id: id.optional(),
  short_by: z.number().int().min(1),
  status: z.enum(['counted', 'verified', 'assumed']).optional(),
});

const SIGNAL_STATUSES = ['open', 'acknowledged', 'dismissed', 'resolved'] as const;
const SEVERITIES = ['low', 'medium', 'high'] as const;

export const addSignalInput = z.strictObject({
  kind: z.string().regex(/^[a-z][a-z0-9_]{0,59}$/, 'must be a lowercase snake_case word'),
  severity: z.enum(SEVERITIES).optional(),
  status: z.enum(SIGNAL_STATUSES).optional(),
  customer_id: id.nullable(),
  department_id: id.nullable().optional(),
  item_id: id.nullable().optional(),
  summary: oneLine(300).optional(),
  suggested_order_qty: z.number().int().min(1).nullable().optional(),
  window_start: day.optional(),
  window_end: day.optional(),
});

export const changeSignalInput = z.strictObject({
  status: z.enum(SIGNAL_STATUSES).optional(),
  severity: z.enum(SEVERITIES).optional(),
  summary: oneLine(300).optional(),
  suggested_order_qty: z.number().int().min(1).nullable().optional(),
  window_start: day.optional(),
  window_end: day.optional(),
});

const TICKET_KINDS = [
  'stain',
  'rip_damage',
  'shortage',
  'wrong_item',
  'late_delivery',
  'billing_dispute',
  'other',
  'complaint',
  'missing_linen',
  'damage_claim',
] as const;
const TICKET_STATUSES = ['new', 'acknowledged', 'in_progress', 'resolved', 'verified'] as const;

export const openTicketInput = z.strictObject({
  customer_id: id,
  kind: z.enum(TICKET_KINDS),
  subject: oneLine(200),
});

export const changeTicketInput = z.strictObject({
  status: z.enum(TICKET_STATUSES).optional(),
  resolution_note: oneLine(500).optional(),
  comment: z.strictObject({ body: oneLine(1000), actor_kind: z.enum(['customer', 'provider']).optional() }).optional(),
});

const PAYMENT_KINDS = ['card', 'ach', 'check', 'cash', 'credit_memo', 'write_off'] as const;

export const addInvoiceInput = z.strictObject({
  customer_id: id,
  department_id: id.nullable().optional(),
  subtotal_cents: cents,
  surcharges_cents: pieces.optional(),
  tax_cents: pieces.optional(),
  issued_on: day.optional(),
  due_on: day.nullable().optional(),
  status: z.enum(['sent', 'partially_paid', 'paid']).optional(),
  paid_cents: cents.optional(),
  invoice_number: oneLine(40).optional(),
});

export const payInvoiceInput = z.strictObject({
  amount_cents: cents.optional(),
  kind: z.enum(PAYMENT_KINDS).optional(),
});

export const changeInvoiceInput = z.strictObject({ due_on: day });

export const addPurchaseOrderInput = z.strictObject({
  customer_id: id,
  total_cents: cents,
  status: z.enum(['pending', 'active', 'closed', 'cancelled']).optional(),
  starts_on: day.optional(),
  expires_on: day.optional(),
  po_number: oneLine(40).optional(),
});

export const spendPurchaseOrderInput = z.strictObject({ amount_cents: cents });

export const setDailyDeliveryInput = z.strictObject({
  customer_id: id,
  department_id: id.nullable(),
  item_id: id,
  date: day.optional(),
  delivered_count: pieces,
});

export type AddCartCount = z.input<typeof addCartCountInput>;
export type ChangeCartCount = z.input<typeof changeCartCountInput>;
export type CloseCountShort = z.input<typeof closeCountShortInput>;
export type AddSignal = z.input<typeof addSignalInput>;
export type ChangeSignal = z.input<typeof changeSignalInput>;
export type OpenTicket = z.input<typeof openTicketInput>;
export type ChangeTicket = z.input<typeof changeTicketInput>;
export type AddInvoice = z.input<typeof addInvoiceInput>;
export type PayInvoice = z.input<typeof payInvoiceInput>;
export type ChangeInvoice = z.input<typeof changeInvoiceInput>;
export type AddPurchaseOrder = z.input<typeof addPurchaseOrderInput>;
export type SpendPurchaseOrder = z.input<typeof spendPurchaseOrderInput>;
export type SetDailyDelivery = z.input<typeof setDailyDeliveryInput>;

/** `lines[2].delivered` */
function fieldOf(path: readonly PropertyKey[]): string {
  let out = '';
  for (const p of path) out += typeof p === 'number' ? `[${p}]` : out ? `.${String(p)}` : String(p);
  return out;
}

const EXPECTED: Record<string, string> = {
  int: 'a whole number',
  number: 'a number',
  string: 'a string',
  boolean: 'true or false',
  object: 'an object',
  array: 'an array',
};

function describe(issue: z.core.$ZodIssue): string {
  const field = fieldOf(issue.path);
  const subject = field ? `"${field}"` : 'the body';
  switch (issue.code) {
    case 'invalid_type':
      if (field && issue.input === undefined) return `${subject} is required`;
      return `${subject} must be ${EXPECTED[issue.expected] ?? issue.expected}`;
    case 'too_small':
      if (issue.origin === 'string') return `${subject} must not be empty`;
      if (issue.origin === 'array') return `${subject} must have at least ${issue.minimum} entries`;
      return `${subject} must be at least ${issue.minimum}`;
    case 'too_big':
      if (issue.origin === 'string') return `${subject} must be at most ${issue.maximum} characters`;
      if (issue.origin === 'array') return `${subject} must have at most ${issue.maximum} entries`;
      return `${subject} must be at most ${issue.maximum}`;
    case 'invalid_value':
      return `${subject} must be one of: ${issue.values.map(String).join(', ')}`;
    case 'unrecognized_keys': {
      const where = field ? ` in "${field}"` : '';
      const names = issue.keys.map((k) => `"${k}"`).join(', ');
      return `unknown field${issue.keys.length === 1 ? '' : 's'} ${names}${where}`;
    }
    case 'invalid_format':
      return `${subject} ${issue.format === 'regex' ? issue.message : `must be a ${issue.format}`}`;
    default:
      return `${subject} ${issue.message}`;
  }
}

/** The body as its schema reads it, or a 422 naming the first field that is off (`what`: "the new invoice"). */
export function parseInput<S extends z.ZodType>(schema: S, body: unknown, what: string): z.output<S> {
  const result = schema.safeParse(body === undefined ? {} : body, { reportInput: true });
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  throw invalidParams(`Invalid ${what}: ${issue ? describe(issue) : 'the body does not fit'}.`);
}
