/** A provider's config entry is wrong; `field` is relative to the provider entry, e.g. `options.maxTokensField`. */
export class ProviderConfigError extends Error {
  constructor(
    readonly field: string,
    readonly problem: string,
  ) {
    super(`${field}: ${problem}`);
    this.name = 'ProviderConfigError';
  }
}

type Options = Record<string, unknown> | undefined;

/** Typed reads of a provider's free-form `options`, each failure naming the field. */
export const readOption = {
  boolean(o: Options, key: string, fallback: boolean): boolean {
    const v = o?.[key];
    if (v === undefined) return fallback;
    if (typeof v !== 'boolean') throw new ProviderConfigError(`options.${key}`, 'must be true or false');
    return v;
  },
  oneOf<T extends string>(o: Options, key: string, values: readonly T[], fallback: T): T {
    const v = o?.[key];
    if (v === undefined) return fallback;
    if (!values.includes(v as T)) throw new ProviderConfigError(`options.${key}`, `must be one of ${values.join(', ')}`);
    return v as T;
  },
  string(o: Options, key: string): string | undefined {
    const v = o?.[key];
    if (v === undefined) return undefined;
    if (typeof v !== 'string' || !v) throw new ProviderConfigError(`options.${key}`, 'must be a non-empty string');
    return v;
  },
  positiveInt(o: Options, key: string, fallback: number): number {
    const v = o?.[key];
    if (v === undefined) return fallback;
    if (typeof v !== 'number' || !Number.isInteger(v) || v < 1)
      throw new ProviderConfigError(`options.${key}`, 'must be a positive integer');
    return v;
  },
  object(o: Options, key: string): Record<string, unknown> | undefined {
    const v = o?.[key];
    if (v === undefined) return undefined;
    if (!v || typeof v !== 'object' || Array.isArray(v)) throw new ProviderConfigError(`options.${key}`, 'must be an object');
    return v as Record<string, unknown>;
  },
  headers(o: Options, key: string): Record<string, string> | undefined {
    const v = readOption.object(o, key);
    if (!v) return undefined;
    for (const [k, x] of Object.entries(v)) {
      if (typeof x !== 'string') throw new ProviderConfigError(`options.${key}.${k}`, 'must be a string');
    }
    return v as Record<string, string>;
  },
};

/** Options a provider does not know are a typo more often than not: refuse them at start-up. */
export function rejectUnknownOptions(o: Options, known: readonly string[]): void {
  for (const k of Object.keys(o ?? {})) {
    if (!known.includes(k)) throw new ProviderConfigError(`options.${k}`, `unknown option; known: ${known.join(', ') || '(none)'}`);
  }
}

/** `baseUrl` as the provider's SDK takes it; http(s) only. */
export function requireBaseUrl(baseUrl: string | undefined, fallback?: string): string {
  const url = baseUrl ?? fallback;
  if (!url) throw new ProviderConfigError('baseUrl', 'is required for this provider type');
  if (!/^https?:\/\/[^/]/.test(url)) throw new ProviderConfigError('baseUrl', 'must be an http(s) URL');
  return url.replace(/\/+$/, '');
}

export function requireApiKey(apiKey: string | undefined): string {
  if (!apiKey) throw new ProviderConfigError('apiKey', 'is required for this provider type (a literal, or "env:NAME")');
  return apiKey;
}
