/**
 * The service document and `$metadata` (CSDL XML, EDMX 4.0): one schema, `Linen`, with an entity type per set,
 * the complex types of nested objects, and one entity container listing every set. Descriptions (`Core.Description`)
 * say what a set or property holds beyond its name (default windows, synthetic keys); money properties name their
 * currency property (`Measures.ISOCurrency`). `odata/schemas/` holds the OASIS XML schemas it validates against.
 */
import type { ComplexType, Property } from './edm.ts';
import { complexTypes, ENTITY_SETS, type EntitySet } from './sets.ts';

export const NAMESPACE = 'Linen';
const CONTAINER = 'Container';
const VOCABULARIES = 'https://oasis-tcs.github.io/odata-vocabularies/vocabularies';

const xmlText = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

const description = (text: string | undefined, indent: string) =>
  text ? `${indent}<Annotation Term="Core.Description" String="${xmlText(text)}"/>\n` : '';

function property(p: Property, indent: string, currency: boolean): string {
  const type =
    p.kind === 'complex' ? `${NAMESPACE}.${p.typeName}` : p.kind === 'collection' ? `Collection(${p.type})` : p.type;
  const facets = p.kind === 'primitive' && p.type === 'Edm.Decimal' ? ' Scale="2"' : '';
  const annotations =
    description(p.description, `${indent}  `) +
    (currency && p.kind === 'primitive' && p.money
      ? `${indent}  <Annotation Term="Measures.ISOCurrency" Path="currency"/>\n`
      : '');
  const open = `${indent}<Property Name="${p.name}" Type="${type}" Nullable="${p.nullable ? 'true' : 'false'}"${facets}`;
  return annotations ? `${open}>\n${annotations}${indent}</Property>\n` : `${open}/>\n`;
}

function entityType(set: EntitySet): string {
  const hasCurrency = set.properties.some((p) => p.name === 'currency');
  const keys = set.key.map((k) => `          <PropertyRef Name="${k}"/>\n`).join('');
  return (
    `      <EntityType Name="${set.typeName}">\n` +
    `        <Key>\n${keys}        </Key>\n` +
    set.properties.map((p) => property(p, '        ', hasCurrency)).join('') +
    '      </EntityType>\n'
  );
}

function complexType(t: ComplexType): string {
  return (
    `      <ComplexType Name="${t.name}">\n` +
    t.properties.map((p) => property(p, '        ', false)).join('') +
    '      </ComplexType>\n'
  );
}

function entitySet(set: EntitySet): string {
  const open = `        <EntitySet Name="${set.name}" EntityType="${NAMESPACE}.${set.typeName}"`;
  return set.description
    ? `${open}>\n${description(set.description, '          ')}        </EntitySet>\n`
    : `${open}/>\n`;
}

function reference(vocabulary: string, alias: string): string {
  return (
    `  <edmx:Reference Uri="${VOCABULARIES}/${vocabulary}.xml">\n` +
    `    <edmx:Include Namespace="${vocabulary}" Alias="${alias}"/>\n` +
    '  </edmx:Reference>\n'
  );
}

/** `$metadata`: the same text for every caller (it depends on no key). */
export const METADATA_XML =
  '<?xml version="1.0" encoding="utf-8"?>\n' +
  '<edmx:Edmx Version="4.0" xmlns:edmx="http://docs.oasis-open.org/odata/ns/edmx">\n' +
  reference('Org.OData.Core.V1', 'Core') +
  reference('Org.OData.Measures.V1', 'Measures') +
  '  <edmx:DataServices>\n' +
  `    <Schema Namespace="${NAMESPACE}" xmlns="http://docs.oasis-open.org/odata/ns/edm">\n` +
  [...complexTypes.values()].map(complexType).join('') +
  ENTITY_SETS.map(entityType).join('') +
  `      <EntityContainer Name="${CONTAINER}">\n` +
  ENTITY_SETS.map(entitySet).join('') +
  '      </EntityContainer>\n' +
  '    </Schema>\n' +
  '  </edmx:DataServices>\n' +
  '</edmx:Edmx>\n';

/** The service document: every entity set, relative to the service root (`base`, '' or PUBLIC_URL's). */
export function serviceDocument(base: string): Record<string, unknown> {
  return {
    '@odata.context': `${base}$metadata`,
    value: ENTITY_SETS.map((s) => ({ name: s.name, kind: 'EntitySet', url: s.name })),
  };
}
