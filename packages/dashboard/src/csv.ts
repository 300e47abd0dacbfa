/** The gateway's CSV rule (http-kit csv-table.ts): a formula-like text (`=+-@`, tab, CR first) is defused, then quoted. */
export const csvField = (v: unknown) => {
  let s = v === null || v === undefined ? '' : String(v);
  if (typeof v === 'string' && /^[=+\-@\t\r]/.test(s)) s = `'${s}`;
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
};
