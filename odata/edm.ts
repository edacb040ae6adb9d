/**
 * The feed's entity types, read off the zod schemas the client validates the API's answers with
 * (`shared/schemas/`), so `$metadata` and the API cannot drift apart. The schemas share one instance per kind of
 * field (`timestamp`, `day`, `cents`, `int`, `num`, `bool` in `shared/schemas/common.ts`), which gives each field
 * its EDM type: days `Edm.Date`, instants `Edm.DateTimeOffset`, money (integer cents) `Edm.Decimal` in the
 * currency's units and named without `_cents`, counts `Edm.Int32`, measures and rates `Edm.Double`. A nested
 * object is a complex type; a list of strings a `Collection(Edm.String)`; a list of objects must be flattened into
 * a set of its own or left out, decided where the set is declared (an undecided one fails at start-up).
 */
import type * as z from 'zod/mini';
import { bool, cents, day, int, num, timestamp } from '../shared/schemas/common.ts';

export type PrimitiveType =
  | 'Edm.String'
  | 'Edm.Boolean'
  | 'Edm.Int32'
  | 'Edm.Double'
  | 'Edm.Decimal'
  | 'Edm.Date'
  | 'Edm.DateTimeOffset';

interface PropertyBase {
  /** The name in the feed (the API's, `_cents` dropped from money). */
  name: string;
  /** The API's field name. */
  source: string;
  nullable: boolean;
  /** Said in `$metadata` (`Core.Description`). */
  description?: string | undefined;
}

export interface PrimitiveProperty extends PropertyBase {
  kind: 'primitive';
  type: PrimitiveType;
  /** Integer cents in the API, a decimal amount of the currency here. */
  money: boolean;
}

export interface ComplexProperty extends PropertyBase {
  kind: 'complex';
  typeName: string;
  properties: Property[];
}

export interface CollectionProperty extends PropertyBase {
  kind: 'collection';
  type: PrimitiveType;
}

export type Property = PrimitiveProperty | ComplexProperty | CollectionProperty;

export interface ComplexType {
  name: string;
  properties: Property[];
}

interface ZodDef {
  type: string;
  innerType?: z.ZodMiniType;
  shape?: Record<string, z.ZodMiniType>;
  element?: z.ZodMiniType;
}

const defOf = (s: z.ZodMiniType) => (s as unknown as { _zod: { def: ZodDef } })._zod.def;

/** The shared field instances and what each is in the feed. */
const KNOWN = new Map<z.ZodMiniType, { type: PrimitiveType; money?: true }>([
  [timestamp, { type: 'Edm.DateTimeOffset' }],
  [day, { type: 'Edm.Date' }],
  [cents, { type: 'Edm.Decimal', money: true }],
  [int, { type: 'Edm.Int32' }],
  [num, { type: 'Edm.Double' }],
  [bool, { type: 'Edm.Boolean' }],
]);

function primitiveOf(schema: z.ZodMiniType, where: string): { type: PrimitiveType; money: boolean } | undefined {
  const known = KNOWN.get(schema);
  if (known) return { type: known.type, money: known.money === true };
  const t = defOf(schema).type;
  if (t === 'string') return { type: 'Edm.String', money: false };
  if (t === 'boolean') return { type: 'Edm.Boolean', money: false };
  if (t === 'number') throw new Error(`${where}: a number field must use a shared instance (int, num or cents)`);
  return undefined;
}

export interface PropertyOptions {
  /** API fields left out of the feed (lists flattened into a set of their own, or not worth a column). */
  omit?: readonly string[] | undefined;
  /** The complex type name of each nested object field. */
  complex?: Readonly<Record<string, string>> | undefined;
  /** Said in `$metadata` for a field. */
  describe?: Readonly<Record<string, string>> | undefined;
}

/** The money field `balance_cents` is `balance` in the feed. */
export const feedName = (field: string, money: boolean) =>
  money && field.endsWith('_cents') ? field.slice(0, -6) : field;

/** The shape of an object schema, for the sets that flatten one of its lists. */
export function shapeOf(schema: z.ZodMiniType): Record<string, z.ZodMiniType> {
  const def = defOf(schema);
  if (def.type !== 'object' || !def.shape) throw new Error('expected an object schema');
  return def.shape;
}

/** The element schema of an array field. */
export function elementOf(schema: z.ZodMiniType): z.ZodMiniType {
  const def = defOf(schema);
  if (def.type !== 'array' || !def.element) throw new Error('expected an array schema');
  return def.element;
}

/** The feed properties of an object schema's fields, in the schema's order. */
export function propertiesOf(
  schema: z.ZodMiniType,
  where: string,
  options: PropertyOptions = {},
  complexTypes?: Map<string, ComplexType>,
): Property[] {
  const out: Property[] = [];
  for (const [field, fieldSchema] of Object.entries(shapeOf(schema))) {
    if (options.omit?.includes(field)) continue;
    let inner = fieldSchema;
    let nullable = false;
    if (defOf(inner).type === 'nullable') {
      nullable = true;
      inner = defOf(inner).innerType!;
    }
    const description = options.describe?.[field];
    const at = `${where}.${field}`;
    const primitive = primitiveOf(inner, at);
    if (primitive) {
      out.push({
        kind: 'primitive',
        name: feedName(field, primitive.money),
        source: field,
        nullable,
        description,
        ...primitive,
      });
      continue;
    }
    const def = defOf(inner);
    if (def.type === 'object') {
      const typeName = options.complex?.[field];
      if (!typeName) throw new Error(`${at}: a nested object needs a complex type name`);
      const properties = propertiesOf(inner, at, {}, complexTypes);
      complexTypes?.set(typeName, { name: typeName, properties });
      out.push({ kind: 'complex', name: field, source: field, nullable, description, typeName, properties });
      continue;
    }
    if (def.type === 'array') {
      const element = primitiveOf(def.element!, at);
      if (!element)
        throw new Error(`${at}: a list of objects is flattened into a set of its own or left out (omit it)`);
      out.push({ kind: 'collection', name: field, source: field, nullable: false, description, type: element.type });
      continue;
    }
    throw new Error(`${at}: no EDM type for a ${def.type} field`);
  }
  return out;
}

/** Cents to the currency's units, exactly as a decimal literal would read (1234 -> 12.34). */
const fromCents = (v: unknown) => (typeof v === 'number' ? v / 100 : v);

/** An API object as a feed value of `properties`. */
export function convert(properties: readonly Property[], api: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const p of properties) {
    const v = api[p.source];
    if (v === undefined || v === null) out[p.name] = null;
    else if (p.kind === 'primitive') out[p.name] = p.money ? fromCents(v) : v;
    else if (p.kind === 'complex') out[p.name] = convert(p.properties, v as Record<string, unknown>);
    else out[p.name] = [...(v as unknown[])];
  }
  return out;
}

/** A property by path (`aging/d61_plus`), or undefined. */
export function propertyAt(properties: readonly Property[], path: readonly string[]): Property | undefined {
  let list: readonly Property[] = properties;
  let found: Property | undefined;
  for (const [i, segment] of path.entries()) {
    found = list.find((p) => p.name === segment);
    if (!found) return undefined;
    if (i < path.length - 1) {
      if (found.kind !== 'complex') return undefined;
      list = found.properties;
    }
  }
  return found;
}

/** A row's value at a path (null when an object on the way is null). */
export function valueAt(row: Record<string, unknown>, path: readonly string[]): unknown {
  let v: unknown = row;
  for (const segment of path) {
    if (v === null || v === undefined) return null;
    v = (v as Record<string, unknown>)[segment];
  }
  return v ?? null;
}
