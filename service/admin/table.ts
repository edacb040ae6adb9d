/** A plain-text table: a heading line, then one line per row, each column as wide as its widest cell. */
export function table(headings: readonly string[], rows: readonly (readonly string[])[]): string[] {
  const widths = headings.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: readonly string[]) =>
    cells
      .map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i]!)))
      .join('  ')
      .trimEnd();
  return [line(headings), ...rows.map(line)];
}
