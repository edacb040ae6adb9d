/** What every change works with: the version it starts from, the day and instant it happens, and lookups. */
import { fromZonedTime } from 'date-fns-tz';
import type { Customer, Department, Item, LocalDate, SandboxData, Timestamp } from '../model.ts';
import { invalidParams, notFound } from '../server/errors.ts';

export interface ChangeContext {
  /** The version the change starts from; never modified. */
  data: SandboxData;
  /** Org-local "today" of the sandbox. */
  today: LocalDate;
  timeZone: string;
  /** The next instant of the change clock (epoch ms), later than every earlier one. */
  at: () => number;
  /** A fresh record id (cuid-like, as the seeded ones). */
  newId: () => string;
}

/** A change: the version it makes and what the control answers. */
export interface Outcome<T> {
  next: SandboxData;
  answer: T;
  /** Ids of the records added or changed (for the change log). */
  ids: string[];
}

export function customerOf(data: SandboxData, id: string): Customer {
  const customer = data.customers.find((c) => c.id === id);
  if (!customer) throw notFound(`Customer "${id}" was not found.`);
  return customer;
}

/** A department of the customer; null stays null (customer level). */
export function departmentOf(data: SandboxData, customer: Customer, id: string | null | undefined): Department | null {
  if (id === null || id === undefined) return null;
  const department = data.departments.find((d) => d.id === id);
  if (!department) throw notFound(`Department "${id}" was not found.`);
  if (department.customer_id !== customer.id)
    throw invalidParams(`Department "${id}" (${department.name}) belongs to another customer than ${customer.name}.`);
  return department;
}

export function itemOf(data: SandboxData, id: string): Item {
  const item = data.items.find((i) => i.id === id);
  if (!item) throw notFound(`Item "${id}" was not found.`);
  return item;
}

export function notAfterToday(ctx: ChangeContext, field: string, day: LocalDate): void {
  if (day > ctx.today) throw invalidParams(`"${field}" (${day}) is after today (${ctx.today}).`);
}

/** An org-local wall-clock time (`HH:mm:ss.SSS`) of a day, as an ISO timestamp. */
export function isoAtLocal(day: LocalDate, time: string, timeZone: string): Timestamp {
  return fromZonedTime(`${day}T${time}`, timeZone).toISOString();
}

export const isoOf = (ms: number): Timestamp => new Date(ms).toISOString();

/** The rows with `record` in place of the row with its id. */
export function replaced<T extends { id: string }>(rows: readonly T[], record: T): T[] {
  return rows.map((row) => (row.id === record.id ? record : row));
}

/** The rows with `row` inserted where `compare` puts it (rows already in that order). */
export function inserted<T>(rows: readonly T[], row: T, compare: (a: T, b: T) => number): T[] {
  let at = rows.findIndex((existing) => compare(row, existing) < 0);
  if (at < 0) at = rows.length;
  return [...rows.slice(0, at), row, ...rows.slice(at)];
}

/** Newest first by a date field, ties by id: the order of the seeded arrays. */
export function newestFirst<T extends { id: string }>(dateOf: (row: T) => string): (a: T, b: T) => number {
  return (a, b) => {
    const da = dateOf(a);
    const db = dateOf(b);
    if (da !== db) return da < db ? 1 : -1;
    return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
  };
}
