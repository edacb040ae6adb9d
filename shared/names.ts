/** How names typed by a person are compared with names from the API: Unicode-normalized, spaces folded, any case. */
export function normalizeName(name: string): string {
  return name.normalize('NFKC').trim().replace(/\s+/g, ' ').toLowerCase();
}
