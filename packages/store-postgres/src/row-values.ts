/** A json(b) column as the driver returns it (an object; a string where a driver leaves it as text). */
export const json = <T>(v: unknown): T | null =>
  v === null || v === undefined ? null : typeof v === 'string' ? (JSON.parse(v) as T) : (v as T);
export const date = (v: unknown): Date | null => (v === null || v === undefined ? null : new Date(v as string));
/** A numeric column (pg returns bigint and numeric as text); absent when null. */
export const num = (v: unknown) => (v === null || v === undefined ? undefined : Number(v));
/**
 * The column of a field: `cacheWriteTokens` is in cache_write_tokens. Remembered per field (the fields are the
 * code's own names, a few dozen): a usage row's write asked for nineteen, each a regex replace, per request.
 */
const columnNames = new Map<string, string>();
export function snakeCase(field: string): string {
  let column = columnNames.get(field);
  if (column === undefined) columnNames.set(field, (column = field.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)));
  return column;
}

/** The fields named, each as its snakeCase column holds it (text, or a value the driver decodes itself). */
export function columnsOf<K extends string>(r: Record<string, any>, fields: readonly K[]): Record<K, any> {
  return Object.fromEntries(fields.map((f) => [f, r[snakeCase(f)]])) as Record<K, any>;
}
