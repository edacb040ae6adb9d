import * as z from 'zod/mini';
import { id, nullable, timestamp } from './common.ts';

export const CustomerSchema = z.object({
  id,
  name: z.string(),
  is_group: z.boolean(),
  created_at: timestamp,
  departments: z.array(z.object({ id, name: z.string() })),
});
export type Customer = z.infer<typeof CustomerSchema>;

export const DepartmentSchema = z.object({
  id,
  customer_id: id,
  name: z.string(),
  cost_center_code: nullable(z.string()),
});
export type Department = z.infer<typeof DepartmentSchema>;

export const ItemSchema = z.object({
  id,
  sku: z.string(),
  name: z.string(),
  category: nullable(z.string()),
  unit_of_measure: z.string(),
  weight_lb: nullable(z.number()),
});
export type Item = z.infer<typeof ItemSchema>;
