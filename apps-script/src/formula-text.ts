/**
 * The text of a LINEN_ formula from a function name, its parameter names and the values picked for them. Used
 * by the add-on (linenInsertFormula rebuilds the formula it writes) and, bundled by the build into
 * FormulaBuilder.html, by the sidebar that shows it as the person picks, so both write the same formula.
 * Values are text (days as YYYY-MM-DD, which every LINEN_ date argument accepts); blank ones are left out.
 */
export function formulaText(name: string, params: readonly string[], values: Readonly<Record<string, string>>): string {
  const args = params.map((p) => {
    const v = (values[p] ?? '').trim();
    return v === '' ? '' : `"${v.replace(/"/g, '""')}"`;
  });
  while (args.length > 0 && args[args.length - 1] === '') args.pop();
  return `=${name}(${args.join(', ')})`;
}
