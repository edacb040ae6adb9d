/**
 * SpreadsheetApp and Charts, as far as the add-on uses them: a spreadsheet of sheets whose cells hold values,
 * formulas and formats, with frozen rows, column widths, conditional format rules, data validation, named
 * ranges, embedded charts and the current cell. Behaviour follows Google's reference
 * (https://developers.google.com/apps-script/reference/spreadsheet), including the failures worth keeping:
 * `setValues` with the wrong dimensions throws, `insertSheet` with a taken name throws, a custom function may
 * read but not write (the "Spreadsheet" row of https://developers.google.com/apps-script/guides/sheets/functions).
 *
 * A formula cell's value is whatever the test put in `values` (Sheets computes it; the stand-in does not).
 */

export interface CellStyle {
  numberFormat?: string;
  background?: string | null;
  fontWeight?: string | null;
  fontColor?: string | null;
  horizontalAlignment?: string | null;
  wrap?: boolean;
}

export interface FakeConditionalRule {
  /** Criteria type as `getBooleanCondition().getCriteriaType()` names it, e.g. CUSTOM_FORMULA, NUMBER_LESS_THAN. */
  criteria: string;
  values: unknown[];
  background: string | null;
  fontColor: string | null;
  bold: boolean | null;
  /** A1 ranges, with the sheet's name. */
  ranges: string[];
}

export interface FakeValidation {
  criteria: string;
  values: unknown[];
  allowInvalid: boolean;
  helpText: string;
}

export interface FakeChart {
  id: number;
  type: string;
  /** A1 notations of the ranges, in order. */
  ranges: string[];
  options: Record<string, unknown>;
  numHeaders: number;
  position: { row: number; column: number; offsetX: number; offsetY: number };
}

export interface FakeSheet {
  name: string;
  /** Formulas by row, '' for cells without one. */
  formulas: string[][];
  /** Values by row: a formula cell's value is what the test says Sheets computed. */
  values?: unknown[][];
  /** Per cell, keyed `row,column` (1-based). */
  styles?: Record<string, CellStyle>;
  frozenRows?: number;
  frozenColumns?: number;
  columnWidths?: Record<number, number>;
  conditionalRules?: FakeConditionalRule[];
  /** Keyed `row,column`. */
  validations?: Record<string, FakeValidation>;
  charts?: FakeChart[];
}

export interface SpreadsheetWorld {
  sheets: FakeSheet[];
  spreadsheetId: string;
  spreadsheetTimeZone: string;
  /** Null for a spreadsheet in a shared drive (`getOwner()` returns null there). */
  owner: string;
  ownerInSharedDrive?: boolean;
  namedRanges?: Record<string, { sheet: string; a1: string }>;
  /** The sheet and cell the user has selected (`getCurrentCell`). */
  active?: { sheet: string; a1: string };
  ui: { kind: string; detail: unknown }[];
  formulaWrites: { sheet: string; row: number; column: number; formula: string }[];
}

const COLUMN = /^\$?([A-Z]{1,3})\$?(\d+)$/;

export function columnNumber(letters: string): number {
  let n = 0;
  for (const ch of letters.toUpperCase()) n = n * 26 + (ch.charCodeAt(0) - 64);
  return n;
}

export function columnLetters(n: number): string {
  let s = '';
  for (let x = n; x > 0; x = Math.floor((x - 1) / 26)) s = String.fromCharCode(65 + ((x - 1) % 26)) + s;
  return s;
}

/** `B2` or `B2:D9` as 1-based row, column and size. */
export function parseA1(a1: string): { row: number; column: number; rows: number; columns: number } {
  const [from, to = from] = a1.toUpperCase().split(':');
  const a = COLUMN.exec(from!);
  const b = COLUMN.exec(to!);
  if (!a || !b) throw new Error(`Exception: Range not found: ${a1}`);
  const r1 = Number(a[2]);
  const r2 = Number(b[2]);
  const c1 = columnNumber(a[1]!);
  const c2 = columnNumber(b[1]!);
  return {
    row: Math.min(r1, r2),
    column: Math.min(c1, c2),
    rows: Math.abs(r2 - r1) + 1,
    columns: Math.abs(c2 - c1) + 1,
  };
}

export function a1Of(row: number, column: number, rows = 1, columns = 1): string {
  const start = `${columnLetters(column)}${row}`;
  return rows === 1 && columns === 1 ? start : `${start}:${columnLetters(column + columns - 1)}${row + rows - 1}`;
}

/** A sheet's cell as tests read it. */
export function cellOf(sheet: FakeSheet, a1: string): { value: unknown; formula: string; style: CellStyle } {
  const { row, column } = parseA1(a1);
  return {
    value: sheet.values?.[row - 1]?.[column - 1] ?? '',
    formula: sheet.formulas[row - 1]?.[column - 1] ?? '',
    style: sheet.styles?.[`${row},${column}`] ?? {},
  };
}

const CHART_TYPES = [
  'AREA',
  'BAR',
  'BUBBLE',
  'CANDLESTICK',
  'COLUMN',
  'COMBO',
  'GAUGE',
  'GEO',
  'HISTOGRAM',
  'LINE',
  'ORG',
  'PIE',
  'RADAR',
  'SCATTER',
  'SPARKLINE',
  'STEPPED_AREA',
  'TABLE',
  'TIMELINE',
  'TREEMAP',
  'WATERFALL',
] as const;

export const Charts = {
  ChartType: Object.fromEntries(CHART_TYPES.map((t) => [t, t])) as Record<(typeof CHART_TYPES)[number], string>,
};

const sameDims = (values: unknown[][], rows: number, columns: number) => {
  if (!Array.isArray(values) || values.length !== rows) {
    throw new Error(
      `Exception: The number of rows in the data does not match the number of rows in the range. The data has ${Array.isArray(values) ? values.length : 0} but the range has ${rows}.`,
    );
  }
  for (const r of values) {
    if (!Array.isArray(r) || r.length !== columns) {
      throw new Error(
        `Exception: The number of columns in the data does not match the number of columns in the range. The data has ${Array.isArray(r) ? r.length : 0} but the range has ${columns}.`,
      );
    }
  }
};

/** The SpreadsheetApp global and the Charts global of one execution. */
export function spreadsheetGlobals(world: SpreadsheetWorld, options: { readOnly: boolean; noUi: () => never }) {
  const { readOnly } = options;
  const write = (method: string) => {
    if (readOnly) throw new Error(`Exception: You do not have permission to call ${method}`);
  };
  let nextChartId = 1;

  const grid = <T>(sheet: FakeSheet, key: 'formulas' | 'values'): T[][] => {
    if (key === 'values') sheet.values ??= [];
    return sheet[key] as T[][];
  };
  const set = (sheet: FakeSheet, key: 'formulas' | 'values', r: number, c: number, v: unknown) => {
    const g = grid<unknown>(sheet, key);
    g[r - 1] ??= [];
    g[r - 1]![c - 1] = v;
  };
  const style = (sheet: FakeSheet, r: number, c: number): CellStyle => {
    sheet.styles ??= {};
    sheet.styles[`${r},${c}`] ??= {};
    return sheet.styles[`${r},${c}`]!;
  };
  const lastRow = (sheet: FakeSheet) => {
    let n = 0;
    const rows = Math.max(sheet.formulas.length, sheet.values?.length ?? 0);
    for (let r = 0; r < rows; r++) {
      const f = sheet.formulas[r] ?? [];
      const v = sheet.values?.[r] ?? [];
      if (f.some((x) => x) || v.some((x) => x !== '' && x !== null && x !== undefined)) n = r + 1;
    }
    return n;
  };
  const lastColumn = (sheet: FakeSheet) => {
    let n = 0;
    for (const row of [...sheet.formulas, ...(sheet.values ?? [])]) {
      (row ?? []).forEach((x, i) => {
        if (x !== '' && x !== null && x !== undefined) n = Math.max(n, i + 1);
      });
    }
    return n;
  };

  const rangeApi = (sheet: FakeSheet, row: number, column: number, rows: number, columns: number) => {
    if (row < 1 || column < 1 || rows < 1 || columns < 1) throw new Error('Exception: Range not found');
    const each = <T>(fn: (r: number, c: number, i: number, j: number) => T): T[][] =>
      Array.from({ length: rows }, (_, i) => Array.from({ length: columns }, (_, j) => fn(row + i, column + j, i, j)));
    const writeEach = (method: string, fn: (r: number, c: number, i: number, j: number) => void) => {
      write(method);
      each(fn);
      return range;
    };
    const styled = <K extends keyof CellStyle>(method: string, key: K) => ({
      one: (v: CellStyle[K]) =>
        writeEach(method, (r, c) => {
          style(sheet, r, c)[key] = v;
        }),
      many: (vs: CellStyle[K][][]) => {
        sameDims(vs as unknown[][], rows, columns);
        return writeEach(method, (r, c, i, j) => {
          style(sheet, r, c)[key] = vs[i]![j];
        });
      },
      get: () => each((r, c) => sheet.styles?.[`${r},${c}`]?.[key]),
    });
    const formats = styled('setNumberFormat', 'numberFormat');
    const setFormula = (r: number, c: number, formula: string) => {
      set(sheet, 'formulas', r, c, formula);
      set(sheet, 'values', r, c, '');
      world.formulaWrites.push({ sheet: sheet.name, row: r, column: c, formula });
    };
    const range = {
      getRow: () => row,
      getColumn: () => column,
      getNumRows: () => rows,
      getNumColumns: () => columns,
      getLastRow: () => row + rows - 1,
      getLastColumn: () => column + columns - 1,
      getA1Notation: () => a1Of(row, column, rows, columns),
      getSheet: () => sheetApi(sheet),
      getFormulas: () => each((r, c) => sheet.formulas[r - 1]?.[c - 1] ?? ''),
      getFormula: () => sheet.formulas[row - 1]?.[column - 1] ?? '',
      getValues: () => each((r, c) => sheet.values?.[r - 1]?.[c - 1] ?? ''),
      getValue: () => sheet.values?.[row - 1]?.[column - 1] ?? '',
      getDisplayValues: () => each((r, c) => String(sheet.values?.[r - 1]?.[c - 1] ?? '')),
      setFormula(formula: string) {
        return writeEach('setFormula', (r, c) => setFormula(r, c, formula));
      },
      setFormulas(formulas: string[][]) {
        sameDims(formulas, rows, columns);
        return writeEach('setFormulas', (r, c, i, j) => setFormula(r, c, formulas[i]![j]!));
      },
      setValue(value: unknown) {
        return writeEach('setValue', (r, c) => {
          set(sheet, 'values', r, c, value);
          set(sheet, 'formulas', r, c, '');
        });
      },
      setValues(values: unknown[][]) {
        sameDims(values, rows, columns);
        return writeEach('setValues', (r, c, i, j) => {
          set(sheet, 'values', r, c, values[i]![j]);
          set(sheet, 'formulas', r, c, '');
        });
      },
      clearContent() {
        return writeEach('clearContent', (r, c) => {
          set(sheet, 'values', r, c, '');
          set(sheet, 'formulas', r, c, '');
        });
      },
      setNumberFormat: formats.one,
      setNumberFormats: formats.many,
      getNumberFormats: formats.get,
      getNumberFormat: () => formats.get()[0]![0] ?? 'General',
      setBackground: styled('setBackground', 'background').one,
      setBackgrounds: styled('setBackgrounds', 'background').many,
      setFontWeight: styled('setFontWeight', 'fontWeight').one,
      setFontWeights: styled('setFontWeights', 'fontWeight').many,
      setFontColor: styled('setFontColor', 'fontColor').one,
      setHorizontalAlignment: styled('setHorizontalAlignment', 'horizontalAlignment').one,
      setWrap: styled('setWrap', 'wrap').one,
      setDataValidation(rule: FakeValidation | null) {
        return writeEach('setDataValidation', (r, c) => {
          sheet.validations ??= {};
          if (rule) sheet.validations[`${r},${c}`] = rule;
          else delete sheet.validations[`${r},${c}`];
        });
      },
      getDataValidation: () => {
        const v = sheet.validations?.[`${row},${column}`];
        return v ? validationApi(v) : null;
      },
      activate() {
        world.active = { sheet: sheet.name, a1: a1Of(row, column, rows, columns) };
        return range;
      },
    };
    return range;
  };

  const validationApi = (v: FakeValidation) => ({
    getCriteriaType: () => v.criteria,
    getCriteriaValues: () => v.values,
    getAllowInvalid: () => v.allowInvalid,
    getHelpText: () => v.helpText,
  });

  const chartApi = (chart: FakeChart) => ({
    getChartId: () => chart.id,
    getOptions: () => ({
      get: (k: string) => chart.options[k] ?? null,
      getOrDefault: (k: string) => chart.options[k] ?? null,
    }),
    getRanges: () => chart.ranges.map((a1) => ({ getA1Notation: () => a1 })),
    getNumHeaders: () => chart.numHeaders,
    getContainerInfo: () => ({
      getAnchorRow: () => chart.position.row,
      getAnchorColumn: () => chart.position.column,
      getOffsetX: () => chart.position.offsetX,
      getOffsetY: () => chart.position.offsetY,
    }),
    modify: () => ({ getChartType: () => chart.type }),
    __fake: chart,
  });

  const chartBuilder = (sheet: FakeSheet) => {
    const chart: FakeChart = {
      id: 0,
      type: 'COLUMN',
      ranges: [],
      options: {},
      numHeaders: -1,
      position: { row: 1, column: 1, offsetX: 0, offsetY: 0 },
    };
    const b = {
      setChartType(type: string) {
        if (!CHART_TYPES.includes(type as never)) throw new Error(`Exception: Invalid argument: type`);
        chart.type = type;
        return b;
      },
      getChartType: () => chart.type,
      asLineChart: () => b.setChartType('LINE'),
      asColumnChart: () => b.setChartType('COLUMN'),
      asBarChart: () => b.setChartType('BAR'),
      asPieChart: () => b.setChartType('PIE'),
      addRange(range: { getA1Notation(): string; getSheet(): { getName(): string } }) {
        if (range.getSheet().getName() !== sheet.name)
          chart.ranges.push(`'${range.getSheet().getName()}'!${range.getA1Notation()}`);
        else chart.ranges.push(range.getA1Notation());
        return b;
      },
      setNumHeaders(n: number) {
        chart.numHeaders = n;
        return b;
      },
      setOption(name: string, value: unknown) {
        chart.options[name] = value;
        return b;
      },
      setPosition(row: number, column: number, offsetX: number, offsetY: number) {
        chart.position = { row, column, offsetX, offsetY };
        return b;
      },
      build() {
        if (chart.ranges.length === 0) throw new Error('Exception: The chart has no data ranges.');
        return chartApi({ ...chart, id: nextChartId++ });
      },
    };
    return b;
  };

  const sheetApi = (sheet: FakeSheet): Record<string, unknown> & { getName(): string } => {
    const api = {
      getName: () => sheet.name,
      getParent: () => spreadsheet,
      getDataRange: () => rangeApi(sheet, 1, 1, Math.max(1, lastRow(sheet)), Math.max(1, lastColumn(sheet))),
      getRange(a: number | string, column?: number, rows = 1, columns = 1) {
        if (typeof a === 'string') {
          const p = parseA1(a);
          return rangeApi(sheet, p.row, p.column, p.rows, p.columns);
        }
        return rangeApi(sheet, a, column!, rows, columns);
      },
      getLastRow: () => lastRow(sheet),
      getLastColumn: () => lastColumn(sheet),
      appendRow(row: unknown[]) {
        write('appendRow');
        const r = lastRow(sheet) + 1;
        row.forEach((v, i) => {
          set(sheet, 'values', r, i + 1, v);
          set(sheet, 'formulas', r, i + 1, '');
        });
        return api;
      },
      deleteRows(start: number, howMany: number) {
        write('deleteRows');
        sheet.formulas.splice(start - 1, howMany);
        sheet.values?.splice(start - 1, howMany);
        return api;
      },
      setFrozenRows(n: number) {
        write('setFrozenRows');
        sheet.frozenRows = n;
      },
      getFrozenRows: () => sheet.frozenRows ?? 0,
      setFrozenColumns(n: number) {
        write('setFrozenColumns');
        sheet.frozenColumns = n;
      },
      getFrozenColumns: () => sheet.frozenColumns ?? 0,
      setColumnWidth(column: number, width: number) {
        write('setColumnWidth');
        sheet.columnWidths ??= {};
        sheet.columnWidths[column] = width;
        return api;
      },
      getColumnWidth: (column: number) => sheet.columnWidths?.[column] ?? 100,
      getConditionalFormatRules: () => (sheet.conditionalRules ?? []).map(ruleApi),
      setConditionalFormatRules(rules: { __fake: FakeConditionalRule }[]) {
        write('setConditionalFormatRules');
        // Replaces every rule of the sheet (Google: "Removes all existing conditional format rules").
        sheet.conditionalRules = rules.map((r) => r.__fake);
      },
      newChart: () => chartBuilder(sheet),
      insertChart(chart: { __fake: FakeChart }) {
        write('insertChart');
        sheet.charts ??= [];
        sheet.charts.push(chart.__fake);
      },
      getCharts: () => (sheet.charts ?? []).map(chartApi),
      activate() {
        world.active = { sheet: sheet.name, a1: 'A1' };
        return api;
      },
    };
    return api;
  };

  const ruleApi = (rule: FakeConditionalRule) => ({
    getBooleanCondition: () => ({
      getCriteriaType: () => rule.criteria,
      getCriteriaValues: () => rule.values,
      getBackground: () => rule.background,
      getFontColor: () => rule.fontColor,
      getBold: () => rule.bold,
    }),
    getRanges: () => rule.ranges.map((a1) => ({ getA1Notation: () => a1 })),
    __fake: rule,
  });

  const conditionalRuleBuilder = () => {
    const rule: FakeConditionalRule = {
      criteria: '',
      values: [],
      background: null,
      fontColor: null,
      bold: null,
      ranges: [],
    };
    const when =
      (criteria: string) =>
      (...values: unknown[]) => {
        rule.criteria = criteria;
        rule.values = values;
        return b;
      };
    const b = {
      whenNumberLessThan: when('NUMBER_LESS_THAN'),
      whenNumberGreaterThanOrEqualTo: when('NUMBER_GREATER_THAN_OR_EQUAL_TO'),
      whenNumberBetween: when('NUMBER_BETWEEN'),
      whenFormulaSatisfied: when('CUSTOM_FORMULA'),
      whenCellEmpty: when('CELL_EMPTY'),
      setBackground(color: string | null) {
        rule.background = color;
        return b;
      },
      setFontColor(color: string | null) {
        rule.fontColor = color;
        return b;
      },
      setBold(bold: boolean) {
        rule.bold = bold;
        return b;
      },
      setRanges(ranges: { getA1Notation(): string }[]) {
        rule.ranges = ranges.map((r) => r.getA1Notation());
        return b;
      },
      build() {
        if (!rule.criteria) throw new Error('Exception: A conditional format rule needs a condition.');
        if (rule.ranges.length === 0) throw new Error('Exception: A conditional format rule needs ranges.');
        return ruleApi({ ...rule });
      },
    };
    return b;
  };

  const validationBuilder = () => {
    const v: FakeValidation = { criteria: '', values: [], allowInvalid: true, helpText: '' };
    const b = {
      requireNumberBetween(lo: number, hi: number) {
        v.criteria = 'NUMBER_BETWEEN';
        v.values = [lo, hi];
        return b;
      },
      requireValueInList(values: string[], showDropdown = true) {
        v.criteria = 'VALUE_IN_LIST';
        v.values = [values, showDropdown];
        return b;
      },
      setAllowInvalid(allow: boolean) {
        v.allowInvalid = allow;
        return b;
      },
      setHelpText(text: string) {
        v.helpText = text;
        return b;
      },
      build: () => ({ ...v }),
    };
    return b;
  };

  const findSheet = (name: string) => world.sheets.find((s) => s.name === name) ?? null;
  const activeSheet = () => findSheet(world.active?.sheet ?? '') ?? world.sheets[0] ?? null;

  const spreadsheet = {
    getId: () => world.spreadsheetId,
    getSpreadsheetTimeZone: () => world.spreadsheetTimeZone,
    getOwner: () => (world.ownerInSharedDrive ? null : { getEmail: () => world.owner }),
    getSheets: () => world.sheets.map(sheetApi),
    getSheetByName: (name: string) => {
      const s = findSheet(name);
      return s ? sheetApi(s) : null;
    },
    getActiveSheet: () => {
      const s = activeSheet();
      return s ? sheetApi(s) : null;
    },
    insertSheet(name: string, index?: number) {
      write('insertSheet');
      if (findSheet(name)) {
        throw new Error(`Exception: A sheet with the name "${name}" already exists. Please enter another name.`);
      }
      const sheet: FakeSheet = { name, formulas: [], values: [] };
      if (index === undefined) world.sheets.push(sheet);
      else world.sheets.splice(index, 0, sheet);
      // "The new sheet becomes the active sheet."
      world.active = { sheet: name, a1: 'A1' };
      return sheetApi(sheet);
    },
    setNamedRange(name: string, range: { getA1Notation(): string; getSheet(): { getName(): string } }) {
      write('setNamedRange');
      world.namedRanges ??= {};
      world.namedRanges[name] = { sheet: range.getSheet().getName(), a1: range.getA1Notation() };
    },
    getRangeByName(name: string) {
      const n = world.namedRanges?.[name];
      const s = n && findSheet(n.sheet);
      return s ? (sheetApi(s).getRange as (a: string) => unknown)(n.a1) : null;
    },
    getCurrentCell: () => currentCell(),
    toast: (msg: string, title?: string) => {
      if (readOnly) options.noUi();
      world.ui.push({ kind: 'toast', detail: { msg, title } });
    },
  };

  const currentCell = () => {
    if (!world.active) return null;
    const s = findSheet(world.active.sheet);
    if (!s) return null;
    const p = parseA1(world.active.a1);
    return rangeApi(s, p.row, p.column, 1, 1);
  };

  const BooleanCriteria = Object.fromEntries(
    ['NUMBER_LESS_THAN', 'NUMBER_GREATER_THAN_OR_EQUAL_TO', 'NUMBER_BETWEEN', 'CUSTOM_FORMULA', 'CELL_EMPTY'].map(
      (k) => [k, k],
    ),
  );
  const SpreadsheetApp = {
    getActiveSpreadsheet: () => spreadsheet,
    getActive: () => spreadsheet,
    getActiveSheet: () => spreadsheet.getActiveSheet(),
    getCurrentCell: () => currentCell(),
    getActiveRange: () => currentCell(),
    newConditionalFormatRule: conditionalRuleBuilder,
    newDataValidation: validationBuilder,
    BooleanCriteria,
    DataValidationCriteria: { NUMBER_BETWEEN: 'NUMBER_BETWEEN', VALUE_IN_LIST: 'VALUE_IN_LIST' },
    flush: () => world.ui.push({ kind: 'flush', detail: null }),
  };
  return { SpreadsheetApp, Charts, spreadsheet };
}
