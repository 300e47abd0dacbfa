/**
 * The upstream credentials of a provider entry beside its `apiKey`: every value of `options.headers`. An upstream
 * may authenticate with any header (Azure's `api-key`, an `Authorization`, a gateway's own token), so each value is
 * kept like the apiKey: sealed at rest, shown as set through the admin API, masked in audit records and known to the
 * redactor. Only this file says where they sit in an entry.
 */
type Entry = Record<string, unknown>;

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/** The entry's header values that are strings, by header name (none: an empty object). */
export function credentialHeaders(entry: Entry | null | undefined): Record<string, string> {
  const headers = isObject(entry?.options) ? entry.options.headers : undefined;
  if (!isObject(headers)) return {};
  return Object.fromEntries(Object.entries(headers).filter((h): h is [string, string] => typeof h[1] === 'string'));
}

/** A copy of the entry with each header value mapped (undefined drops the header); the entry itself is left alone. */
export function mapCredentialHeaders(entry: Entry, map: (value: string, name: string) => string | undefined): Entry {
  const options = entry.options;
  if (!isObject(options) || !isObject(options.headers)) return entry;
  const headers: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(options.headers)) {
    const mapped = typeof value === 'string' ? map(value, name) : value;
    if (mapped !== undefined) headers[name] = mapped;
  }
  return { ...entry, options: { ...options, headers } };
}
