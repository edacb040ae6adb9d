/** Every /v1 endpoint, by resource family. */
import type { RouteDef } from '../server/router.ts';
import { accountingRoutes } from './accounting.ts';
import { catalogRoutes } from './catalog.ts';
import { feedbackRoutes } from './feedback.ts';
import { inventoryRoutes } from './inventory.ts';
import { orderRoutes } from './orders.ts';
import { processingRoutes } from './processing.ts';

export const routes: readonly RouteDef[] = [
  ...catalogRoutes,
  ...processingRoutes,
  ...inventoryRoutes,
  ...accountingRoutes,
  ...orderRoutes,
  ...feedbackRoutes,
];
