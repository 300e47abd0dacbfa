/** A json(b) column as the driver returns it (an object; a string where a driver leaves it as text). */
export const json = <T>(v: unknown): T | null =>
  v === null || v === undefined ? null : typeof v === 'string' ? (JSON.parse(v) as T) : (v as T);
export const date = (v: unknown): Date | null => (v === null || v === undefined ? null : new Date(v as string));
/** A numeric column (pg returns bigint and numeric as text); absent when null. */
export const num = (v: unknown) => (v === null || v === undefined ? undefined : Number(v));
/** The column of a field: `cacheWriteTokens` is in cache_write_tokens. */
export const snakeCase = (field: string) => field.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/** The fields named, each as its snakeCase column holds it (text, or a value the driver decodes itself). */
export function columnsOf<K extends string>(r: Record<string, any>, fields: readonly K[]): Record<K, any> {
  return Object.fromEntries(fields.map((f) => [f, r[snakeCase(f)]])) as Record<K, any>;
}
