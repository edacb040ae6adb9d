/**
 * The public API of the Linen client, safe for every runtime (no Node or undici imports).
 * Node callers can use `node.ts`, which adds the undici transport.
 */
export {
  createLinenClient,
  createLinenClientSync,
  createLinenApiSync,
  type AsyncClientOptions,
  type AsyncResources,
  type LinenClient,
  type LinenClientOptions,
  type LinenClientSync,
  type LinenApiSync,
  type SyncClientOptions,
  type SyncResources,
} from './client.ts';
export { AsyncPaged, SyncPaged, type Page, type PageOptions, type WalkOptions } from './paged.ts';
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
export { redact } from './redact.ts';
export type { AsyncTransport, Effect, HttpRequest, HttpResponse, Operation, SyncTransport } from './core/effects.ts';
export { runAsync, runSync } from './core/run.ts';
export { Pacer, memoryPacingStore, type PacingOptions, type PacingState, type PacingStore } from './core/pacing.ts';
export { addDays, daysInclusive, lastNDays, splitWindow, today, toIsoDay, type DateInput, type DayWindow } from './dates.ts';
export type * from './resources/types.ts';
export * from './schemas/customers.ts';
export * from './schemas/processing.ts';
export * from './schemas/inventory.ts';
export * from './schemas/accounting.ts';
export * from './schemas/orders.ts';
export * from './schemas/quality.ts';
export {
  computeAr,
  computeFillRate,
  groupSignals,
  parseTicketNumber,
  resolveCustomerFrom,
  ticketStatusLabel,
  SHORTFALL_KINDS,
  type Aging,
  type ArCustomer,
  type ArReport,
  type ArTotal,
  type FillRateBucket,
  type FillRateParams,
  type FillRateReport,
  type SignalGroup,
  type SignalReportParams,
  type TicketWithLabel,
} from './reports/index.ts';
