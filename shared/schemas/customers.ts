import * as z from 'zod/mini';
import { bool, id, nullable, num, text, timestamp } from './common.ts';

export const CustomerSchema = z.object({
  id,
  name: text,
  is_group: bool,
  created_at: timestamp,
  departments: z.array(z.object({ id, name: text })),
});
export type Customer = z.infer<typeof CustomerSchema>;

export const DepartmentSchema = z.object({
  id,
  customer_id: id,
  name: text,
  cost_center_code: nullable(text),
});
export type Department = z.infer<typeof DepartmentSchema>;

export const ItemSchema = z.object({
  id,
  sku: text,
  name: text,
  category: nullable(text),
  unit_of_measure: text,
  weight_lb: nullable(num),
});
export type Item = z.infer<typeof ItemSchema>;
