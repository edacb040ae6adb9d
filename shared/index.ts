/**
 * The public API of the Linen client, safe for every runtime (no Node or undici imports).
 * Node callers can use `node.ts`, which adds the undici transport.
 */
export {
  type AsyncClientOptions,
  type AsyncResources,
  createLinenApiSync,
  createLinenClient,
  createLinenClientSync,
  type LinenApiSync,
  type LinenClient,
  type LinenClientOptions,
  type LinenClientSync,
  type SyncClientOptions,
  type SyncResources,
} from './client.ts';
export type { AsyncTransport, Effect, HttpRequest, HttpResponse, Operation, SyncTransport } from './core/effects.ts';
export {
  DEFAULT_PACING,
  memoryPacingStore,
  type PaceAnswer,
  Pacer,
  type PacingOptions,
  type PacingState,
  type PacingStore,
  type RequestPacer,
} from './core/pacing.ts';
export { runAsync, runSync } from './core/run.ts';
export { type BatchSyncTransport, runSyncBatch, type Settled } from './core/run-batch.ts';
export {
  addDays,
  type DateInput,
  type DayWindow,
  daysInclusive,
  lastCompleteDays,
  lastNDays,
  splitWindow,
  today,
  toIsoDay,
} from './dates.ts';
export {
  AuthenticationError,
  ConfigurationError,
  ConnectionError,
  InternalServerError,
  InvalidParamsError,
  LinenError,
  MethodNotAllowedError,
  NotFoundError,
  PermissionDeniedError,
  RateLimitError,
  ResponseShapeError,
  TimeoutError,
} from './errors.ts';
export { AsyncPaged, type Page, type PageOptions, SyncPaged, type WalkOptions } from './paged.ts';
export { redact } from './redact.ts';
export {
  AGING_BUCKETS,
  AGING_LABELS,
  type AgedInvoice,
  type Aging,
  type AgingBucket,
  type ArCustomer,
  type ArReport,
  type ArTotal,
  ageInvoices,
  type CustomerTicket,
  computeAr,
  computeFillRate,
  computePoStatus,
  computeRewashRate,
  computeShort,
  daysOverdue,
  type FillRateBucket,
  type FillRateParams,
  type FillRateReport,
  groupLocations,
  groupSignals,
  groupWithoutOwn,
  locationsPhrase,
  newestFirst,
  type PoStatus,
  parseTicketNumber,
  type RewashRate,
  resolveCustomerFrom,
  SHORTFALL_KINDS,
  type ShortToday,
  type SignalGroup,
  type SignalReportParams,
  serves,
  signalsOfKind,
  type TicketWithLabel,
  tagTickets,
  ticketStatusLabel,
  unitsOfPlace,
} from './reports/index.ts';
export type * from './resources/types.ts';
export * from './schemas/accounting.ts';
export * from './schemas/customers.ts';
export * from './schemas/inventory.ts';
export * from './schemas/orders.ts';
export * from './schemas/processing.ts';
export * from './schemas/quality.ts';
