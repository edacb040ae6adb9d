export * from './common.ts';
export * from './customers.ts';
export * from './processing.ts';
export * from './inventory.ts';
export * from './accounting.ts';
export * from './orders.ts';
export * from './quality.ts';
