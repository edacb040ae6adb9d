export type { BalanceListParams, InvoiceListParams, PaymentListParams, PurchaseOrderListParams } from './accounting.ts';
export type { CustomerListParams, DepartmentListParams, ItemListParams } from './customers.ts';
export type {
  BalanceByStatusParams,
  CartCountParams,
  CartListParams,
  InventoryTotalsParams,
  ParLevelParams,
  SignalListParams,
  UnitListParams,
} from './inventory.ts';
export type { OrderListParams } from './orders.ts';
export type { DailyDeliveryParams, ManifestListParams, NewLinenListParams, RewashListParams } from './processing.ts';
export type { QualityTicketListParams, RatingListParams } from './quality.ts';
