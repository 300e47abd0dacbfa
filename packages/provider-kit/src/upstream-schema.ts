import { malformedUpstream } from './upstream-errors';

/**
 * Minimal schemas of upstream answers (`<p>-api.ts`), after vercel/ai's: every field may be missing, a
 * null counts as missing (and is dropped), unknown fields pass through, but a field that is present must
 * have its type. Mappers then read a checked answer and never crash on `{"choices":"x"}`: the check turns
 * it into upstream_malformed_response first.
 */
export interface UpstreamSchema<T> {
  /** the value as T (nulls of declared fields dropped); throws SchemaMismatch at the first wrong type */
  read(value: unknown): T;
}

export type Infer<S> = S extends UpstreamSchema<infer T> ? T : never;

type Fields = Record<string, UpstreamSchema<unknown>>;
type ObjectOf<F extends Fields> = { [K in keyof F]?: Infer<F[K]> };

/**
 * Thrown at the first wrong type; each enclosing object or array puts its own step in front of `path` as the
 * error passes, so a well-typed answer (every streamed chunk) builds no path strings at all.
 */
class SchemaMismatch extends Error {
  constructor(public path = '') {
    super('wrongly typed upstream field');
  }
}

/** Puts `step` in front of a mismatch's path on its way out; other errors pass unchanged. */
function prefixed(e: unknown, step: string): unknown {
  if (e instanceof SchemaMismatch) e.path = step + e.path;
  return e;
}

const leaf = <T>(test: (v: unknown) => boolean): UpstreamSchema<T> => ({
  read(v) {
    if (!test(v)) throw new SchemaMismatch();
    return v as T;
  },
});

export const s = {
  string: () => leaf<string>((v) => typeof v === 'string'),
  number: () => leaf<number>((v) => typeof v === 'number' && Number.isFinite(v)),
  boolean: () => leaf<boolean>((v) => typeof v === 'boolean'),
  /** free-form JSON the mapper checks itself (tool arguments, metadata) */
  unknown: () => leaf<unknown>(() => true),

  object<F extends Fields>(fields: F): UpstreamSchema<ObjectOf<F>> {
    const declared = Object.entries(fields).map(([k, field]) => [k, field, `.${k}`] as const);
    return {
      read(v) {
        if (!v || typeof v !== 'object' || Array.isArray(v)) throw new SchemaMismatch();
        const input = v as Record<string, unknown>;
        // copied only when a declared null is dropped or a nested value comes back changed
        let out = input;
        for (const [k, field, step] of declared) {
          const value = input[k];
          if (value === undefined) continue;
          if (value === null) {
            if (out === input) out = { ...input };
            delete out[k];
            continue;
          }
          let read: unknown;
          try {
            read = field.read(value);
          } catch (e) {
            throw prefixed(e, step);
          }
          if (read !== value) {
            if (out === input) out = { ...input };
            out[k] = read;
          }
        }
        return out as ObjectOf<F>;
      },
    };
  },

  array<T>(item: UpstreamSchema<T>): UpstreamSchema<T[]> {
    return {
      read(v) {
        if (!Array.isArray(v)) throw new SchemaMismatch();
        let out: unknown[] = v;
        for (let i = 0; i < v.length; i++) {
          let read: T;
          try {
            read = item.read(v[i]);
          } catch (e) {
            throw prefixed(e, `[${i}]`);
          }
          if (read !== v[i]) {
            if (out === v) out = [...v];
            out[i] = read;
          }
        }
        return out as T[];
      },
    };
  },

  /** the first alternative that fits wins */
  oneOf<A, B>(a: UpstreamSchema<A>, b: UpstreamSchema<B>): UpstreamSchema<A | B> {
    return {
      read(v) {
        try {
          return a.read(v);
        } catch (e) {
          if (!(e instanceof SchemaMismatch)) throw e;
          return b.read(v);
        }
      },
    };
  },
};

/**
 * `value` read through `schema`; a wrongly typed field is upstream_malformed_response naming the field's path
 * (the schema's own names and indices, never the upstream's value).
 */
export function checkUpstream<T>(schema: UpstreamSchema<T>, value: unknown, what: string): T {
  try {
    return schema.read(value);
  } catch (e) {
    if (e instanceof SchemaMismatch) throw malformedUpstream(`${what} with a wrongly typed field ($${e.path})`);
    throw e;
  }
}
