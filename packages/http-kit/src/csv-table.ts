/**
 * A text cell a spreadsheet would run as a formula: `=`, `+`, `-`, `@`, and a tab or carriage return (which some
 * spreadsheets skip before reading the `=` that follows). Such a cell gets a leading `'`, which shows it as text.
 */
export const FORMULA_START = /^[=+\-@\t\r]/;

/** RFC 4180: a field with a comma, quote or line break is quoted, its quotes doubled; a formula-like text is defused first. */
export function csvField(v: unknown): string {
  let s = v === null || v === undefined ? '' : String(v);
  if (typeof v === 'string' && FORMULA_START.test(s)) s = `'${s}`;
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/** A header row and one line per row, CRLF-terminated. */
export function csvTable(columns: readonly string[], rows: Array<Record<string, unknown>>): string {
  const lines = rows.map((r) => columns.map((c) => csvField(r[c])).join(','));
  return [columns.join(','), ...lines].join('\r\n') + '\r\n';
}
