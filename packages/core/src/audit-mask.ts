const SECRET_FIELD = /^(key|secret|api_?key|hash|key_hash|password|token|callback_secret)$/i;

const MASKED = '(masked)';

/** Any header may carry a credential (provider-credentials.ts): a `headers` object keeps its names, never its values. */
const maskHeaders = (v: unknown) =>
  v !== null && typeof v === 'object' && !Array.isArray(v)
    ? Object.fromEntries(Object.keys(v).map((name) => [name, MASKED]))
    : maskSecrets(v);

/** A copy of an audit snapshot with every secret-looking field masked: the log must never hold a secret. */
export function maskSecrets(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(maskSecrets);
  if (value === null || typeof value !== 'object' || value instanceof Date) return value;
  return Object.fromEntries(
    Object.entries(value as Record<string, unknown>).map(([k, v]) => [
      k,
      SECRET_FIELD.test(k) && v !== null && v !== undefined
        ? typeof v === 'string' && v.startsWith('env:')
          ? v
          : MASKED
        : k.toLowerCase() === 'headers'
          ? maskHeaders(v)
          : maskSecrets(v),
    ]),
  );
}
