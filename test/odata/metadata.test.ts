/**
 * `$metadata` as served, validated against the OASIS CSDL XML schemas (`odata/schemas/edmx.xsd`, which imports
 * `edm.xsd`) with Debian's xmllint (libxml2-utils; `.ci/run` installs it), and read for what the feed promises:
 * EDMX 4.0, one schema, a key on every entity type, the default windows said on their sets, money in the
 * currency's units beside its currency.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ODataHarness, startODataHarness } from '../support/odata-harness.ts';

let h: ODataHarness;
let xml: string;
let dir: string;

beforeAll(async () => {
  h = await startODataHarness();
  const r = await h.get('/odata/$metadata');
  expect(r.status).toBe(200);
  expect(r.headers.get('content-type')).toMatch(/^application\/xml/);
  expect(r.headers.get('odata-version')).toBe('4.0');
  xml = await r.text();
  dir = mkdtempSync(join(tmpdir(), 'linen-odata-metadata-'));
});
afterAll(async () => {
  await h?.close();
  rmSync(dir, { recursive: true, force: true });
});

const entityType = (name: string) =>
  new RegExp(`<EntityType Name="${name}">([\\s\\S]*?)</EntityType>`).exec(xml)?.[1] ?? '';

describe('$metadata', () => {
  it('is valid CSDL XML by the OASIS schemas edmx.xsd and edm.xsd', () => {
    const file = join(dir, 'metadata.xml');
    writeFileSync(file, xml);
    const run = spawnSync('xmllint', ['--noout', '--schema', 'odata/schemas/edmx.xsd', file], { encoding: 'utf8' });
    expect(run.error, 'xmllint is missing: apt-get install libxml2-utils').toBeUndefined();
    expect(run.stderr.trim()).toBe(`${file} validates`);
    expect(run.status).toBe(0);
  });

  it('is checked against the schemas for real: a document breaking them fails validation', () => {
    const file = join(dir, 'broken.xml');
    writeFileSync(file, xml.replace('<Key>', '<Keys>').replace('</Key>', '</Keys>'));
    const run = spawnSync('xmllint', ['--noout', '--schema', 'odata/schemas/edmx.xsd', file], { encoding: 'utf8' });
    expect(run.status).not.toBe(0);
  });

  it('is EDMX 4.0 with one schema and one container, and a key on every entity type', () => {
    expect(xml).toMatch(/<edmx:Edmx Version="4.0"/);
    expect(xml.match(/<Schema /g)?.length).toBe(1);
    expect(xml.match(/<EntityContainer /g)?.length).toBe(1);
    const types = [...xml.matchAll(/<EntityType Name="(\w+)">([\s\S]*?)<\/EntityType>/g)];
    expect(types.length).toBe(26);
    for (const [, name, body] of types) expect(body, name).toMatch(/<Key>\s*<PropertyRef Name="\w+"\/>\s*<\/Key>/);
  });

  it('says on Deliveries and CartCounts that without a date filter they hold the last 7 days', () => {
    for (const set of ['Deliveries', 'CartCounts']) {
      const decl = new RegExp(`<EntitySet Name="${set}"[^>]*>([\\s\\S]*?)</EntitySet>`).exec(xml)?.[1] ?? '';
      expect(decl, set).toMatch(/<Annotation Term="Core.Description" String="[^"]*the last 7 days[^"]*"\/>/);
    }
  });

  it('names money without _cents, as Edm.Decimal with two decimals, annotated with its currency property', () => {
    const invoice = entityType('Invoice');
    expect(invoice).not.toMatch(/_cents/);
    expect(invoice).toMatch(
      /<Property Name="balance" Type="Edm.Decimal" Nullable="false" Scale="2">\s*<Annotation Term="Measures.ISOCurrency" Path="currency"\/>/,
    );
    expect(entityType('PurchaseOrder')).toMatch(/<Property Name="remaining" Type="Edm.Decimal"/);
    expect(entityType('Cart')).toMatch(/<Property Name="count_days" Type="Collection\(Edm.String\)"/);
    expect(entityType('Customer')).not.toMatch(/departments/);
  });
});
