/** RFC 4180: a field with a comma, quote or line break is quoted, its quotes doubled; a leading =+-@ is defused for spreadsheets. */
export function csvField(v: unknown): string {
  let s = v === null || v === undefined ? '' : String(v);
  if (/^[=+\-@]/.test(s) && typeof v === 'string') s = `'${s}`;
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/** A header row and one line per row, CRLF-terminated. */
export function csvTable(columns: readonly string[], rows: Array<Record<string, unknown>>): string {
  const lines = rows.map((r) => columns.map((c) => csvField(r[c])).join(','));
  return [columns.join(','), ...lines].join('\r\n') + '\r\n';
}
