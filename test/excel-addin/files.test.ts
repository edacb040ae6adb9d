/**
 * The built add-in as Office reads it: functions.json written by custom-functions-metadata from the generated
 * JSDoc (snapshotted: a change to any function's declaration shows in review), the add-in only manifest (a shared
 * runtime, the LINEN namespace, a ribbon button that opens the task pane, every resid defined, every URL under
 * PUBLIC_URL/excel/ and served from the build), and the runtime page's scripts.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DOMParser, type Document, type Element } from '@xmldom/xmldom';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildExcelAddin, publicOrigin } from '../../scripts/build-excel-addin.ts';
import { FUNCTIONS, mayReturnTable } from '../../shared/cells/catalog.ts';
import { pageScripts } from '../support/excel-runtime.ts';

const PUBLIC_URL = 'https://linen.example.org';
let dir: string;
let files: string[];
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'linen-excel-files-'));
  ({ files } = await buildExcelAddin({ outDir: dir, publicUrl: PUBLIC_URL, quiet: true }));
}, 60_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface Metadata {
  allowCustomDataForDataTypeAny: boolean;
  functions: {
    id: string;
    name: string;
    description: string;
    options?: { cancelable?: boolean };
    parameters: { name: string; type: string; optional?: boolean; dimensionality?: string }[];
    result: { dimensionality?: string };
  }[];
}

describe('functions.json', () => {
  it('is what custom-functions-metadata writes from the generated JSDoc (snapshot)', async () => {
    await expect(readFileSync(join(dir, 'functions.json'), 'utf8')).toMatchFileSnapshot(
      './__snapshots__/functions.json',
    );
  });

  it('declares every function of the catalog: its Excel name, parameters, optional ones, spills and cancellation', () => {
    const meta = JSON.parse(readFileSync(join(dir, 'functions.json'), 'utf8')) as Metadata;
    // Formatted numbers (dates shown as dates) are data types: Excel takes them from results typed any.
    expect(meta.allowCustomDataForDataTypeAny).toBe(true);
    expect(meta.functions.map((f) => f.id)).toEqual(FUNCTIONS.map((f) => f.name.replace(/^LINEN_/, '')));
    for (const [i, f] of FUNCTIONS.entries()) {
      const m = meta.functions[i]!;
      expect(m.name).toBe(m.id);
      expect(m.description).toBe(f.summary);
      expect(m.options?.cancelable).toBe(true);
      expect(m.result.dimensionality).toBe(mayReturnTable(f) ? 'matrix' : undefined);
      expect(m.parameters.map((p) => p.name)).toEqual(f.params.map((p) => p.name));
      for (const [j, p] of f.params.entries()) {
        const mp = m.parameters[j]!;
        expect(mp.optional === true).toBe(p.optional === true);
        // A date comes as it is (a serial number stays a number); a ticket number may be a range.
        expect(mp.type).toBe(p.kind === 'date' || p.kind === 'ticket' ? 'any' : 'string');
        expect(mp.dimensionality).toBe(p.kind === 'ticket' ? 'matrix' : undefined);
      }
    }
  });
});

describe('manifest.xml', () => {
  const OV = 'http://schemas.microsoft.com/office/taskpaneappversionoverrides';
  const BT = 'http://schemas.microsoft.com/office/officeappbasictypes/1.0';
  const XSI = 'http://www.w3.org/2001/XMLSchema-instance';
  let doc: Document;
  const all = (ns: string, name: string) => [...doc.getElementsByTagNameNS(ns, name)] as unknown as Element[];
  const one = (ns: string, name: string) => {
    const found = all(ns, name);
    expect(found, name).toHaveLength(1);
    return found[0]!;
  };
  const child = (e: Element, name: string) =>
    [...(e.childNodes as unknown as Element[])].find((c) => c.localName === name)!;
  beforeAll(() => {
    doc = new DOMParser().parseFromString(readFileSync(join(dir, 'manifest.xml'), 'utf8'), 'text/xml');
  });

  it('is an add-in only manifest for Excel with a fixed id, a four-part version and a shared runtime', () => {
    const root = doc.documentElement!;
    expect(root.localName).toBe('OfficeApp');
    expect(root.getAttributeNS(XSI, 'type')).toBe('TaskPaneApp');
    const text = (name: string) => doc.getElementsByTagName(name)[0]!.textContent;
    expect(text('Id')).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(text('Version')).toMatch(/^\d+\.\d+\.\d+\.\d+$/);
    expect(
      [...doc.getElementsByTagName('Host')].filter((h) => h.getAttribute('Name')).map((h) => h.getAttribute('Name')),
    ).toEqual(['Workbook']);
    const sets = Object.fromEntries(
      [...doc.getElementsByTagName('Set')].map((s) => [s.getAttribute('Name'), s.getAttribute('MinVersion')]),
    );
    expect(sets).toMatchObject({ SharedRuntime: '1.1', CustomFunctionsRuntime: '1.3' });
    const runtime = one(OV, 'Runtime');
    expect(runtime.getAttribute('lifetime')).toBe('long');
    expect(runtime.getAttribute('resid')).toBe('Taskpane.Url');
  });

  it('puts the functions, the task pane and the ribbon button in that one runtime, in the LINEN namespace', () => {
    const point = all(OV, 'ExtensionPoint').find((e) => e.getAttributeNS(XSI, 'type') === 'CustomFunctions')!;
    const resid = (e: Element, name: string) => {
      const c = child(e, name);
      return (child(c, 'SourceLocation') ?? c).getAttribute('resid');
    };
    expect(resid(point, 'Script')).toBe('Functions.Script.Url');
    expect(resid(point, 'Page')).toBe('Taskpane.Url');
    expect(resid(point, 'Metadata')).toBe('Functions.Metadata.Url');
    expect(child(point, 'Namespace').getAttribute('resid')).toBe('Functions.Namespace');
    const namespace = all(BT, 'String').find((s) => s.getAttribute('id') === 'Functions.Namespace')!;
    expect(namespace.getAttribute('DefaultValue')).toBe('LINEN');
    expect(one(OV, 'FunctionFile').getAttribute('resid')).toBe('Taskpane.Url');
    const action = all(OV, 'Action')[0]!;
    expect(action.getAttributeNS(XSI, 'type')).toBe('ShowTaskpane');
    expect(child(action, 'SourceLocation').getAttribute('resid')).toBe('Taskpane.Url');
    expect(one(OV, 'OfficeTab').getAttribute('id')).toBe('TabHome');
  });

  it('defines every resid it uses, uses every one it defines, within the length Office allows', () => {
    const defined = new Map<string, Element>();
    for (const kind of ['Image', 'Url', 'String'])
      for (const e of all(BT, kind)) if (e.getAttribute('id')) defined.set(e.getAttribute('id')!, e);
    const used = new Set(
      [...doc.getElementsByTagName('*')].map((e) => e.getAttribute('resid')).filter((r): r is string => !!r),
    );
    expect([...used].filter((r) => !defined.has(r))).toEqual([]);
    expect([...defined.keys()].filter((r) => !used.has(r))).toEqual([]);
    for (const s of all(BT, 'String')) {
      const max = (s.parentNode as Element).localName === 'ShortStrings' ? 125 : 250;
      expect(s.getAttribute('DefaultValue')!.length, s.getAttribute('id')!).toBeLessThanOrEqual(max);
    }
  });

  it(`points every URL at a built file under PUBLIC_URL/excel/, over https`, () => {
    const urls = [...doc.getElementsByTagName('*')]
      .map((e) => e.getAttribute('DefaultValue'))
      .filter((v): v is string => !!v && /^[a-z]+:\/\//.test(v));
    expect(urls.length).toBeGreaterThanOrEqual(10);
    for (const url of urls) {
      expect(url.startsWith(`${PUBLIC_URL}/excel/`), url).toBe(true);
      expect(files).toContain(url.slice(`${PUBLIC_URL}/excel/`.length));
    }
  });

  it('names icons that are PNGs of their sizes', () => {
    for (const img of all(BT, 'Image').filter((e) => e.getAttribute('id'))) {
      const size = Number(/(\d+)x\d+/.exec(img.getAttribute('id')!)![1]);
      const png = readFileSync(join(dir, img.getAttribute('DefaultValue')!.slice(`${PUBLIC_URL}/excel/`.length)));
      expect(png.subarray(1, 4).toString()).toBe('PNG');
      expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([size, size]);
    }
  });
});

describe('the runtime page and PUBLIC_URL', () => {
  it("loads office.js from Microsoft's CDN, then the add-in's bundle, then the functions it registers", () => {
    const html = readFileSync(join(dir, 'taskpane.html'), 'utf8');
    const srcs = [...html.matchAll(/<script\s+src="([^"]+)"/g)].map((m) => m[1]);
    expect(srcs).toEqual(['https://appsforoffice.microsoft.com/lib/1/hosted/office.js', 'linen.js', 'functions.js']);
    expect(pageScripts(dir)).toEqual(['linen.js', 'functions.js']);
    const functionsJs = readFileSync(join(dir, 'functions.js'), 'utf8');
    const registered = /LinenExcel\.register\(\{ (.*) \}\);/
      .exec(functionsJs)![1]!
      .split(', ')
      .map((p) => p.split(':')[0]);
    expect(registered).toEqual(FUNCTIONS.map((f) => f.name.replace(/^LINEN_/, '')));
  });

  it('is an https origin alone (http only on this machine); anything else is refused with a sentence', () => {
    expect(publicOrigin('https://linen.example.org/')).toBe('https://linen.example.org');
    expect(publicOrigin('http://localhost:3000')).toBe('http://localhost:3000');
    expect(() => publicOrigin('http://linen.example.org')).toThrow(/must be https/);
    expect(() => publicOrigin('https://linen.example.org/linen')).toThrow(/origin alone/);
    expect(() => publicOrigin('https://user:pw@linen.example.org')).toThrow(/origin alone/);
    expect(() => publicOrigin('linen.example.org')).toThrow(/must be an https address/);
  });
});
