import { malformedUpstream } from './upstream-errors';

/**
 * Minimal schemas of upstream answers (`<p>-api.ts`), after vercel/ai's: every field may be missing, a
 * null counts as missing (and is dropped), unknown fields pass through, but a field that is present must
 * have its type. Mappers then read a checked answer and never crash on `{"choices":"x"}`: the check turns
 * it into upstream_malformed_response first.
 */
export interface UpstreamSchema<T> {
  /** the value as T (nulls of declared fields dropped); throws SchemaMismatch at the first wrong type */
  read(value: unknown, path: string): T;
}

export type Infer<S> = S extends UpstreamSchema<infer T> ? T : never;

type Fields = Record<string, UpstreamSchema<unknown>>;
type ObjectOf<F extends Fields> = { [K in keyof F]?: Infer<F[K]> };

class SchemaMismatch extends Error {
  constructor(readonly path: string) {
    super(`wrongly typed upstream field ${path}`);
  }
}

const leaf = <T>(test: (v: unknown) => boolean): UpstreamSchema<T> => ({
  read(v, path) {
    if (!test(v)) throw new SchemaMismatch(path);
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
    return {
      read(v, path) {
        if (!v || typeof v !== 'object' || Array.isArray(v)) throw new SchemaMismatch(path);
        const out: Record<string, unknown> = { ...(v as Record<string, unknown>) };
        for (const [k, field] of Object.entries(fields)) {
          if (out[k] === undefined || out[k] === null) delete out[k];
          else out[k] = field.read(out[k], `${path}.${k}`);
        }
        return out as ObjectOf<F>;
      },
    };
  },

  array<T>(item: UpstreamSchema<T>): UpstreamSchema<T[]> {
    return {
      read(v, path) {
        if (!Array.isArray(v)) throw new SchemaMismatch(path);
        return v.map((x, i) => item.read(x, `${path}[${i}]`));
      },
    };
  },

  /** the first alternative that fits wins */
  oneOf<A, B>(a: UpstreamSchema<A>, b: UpstreamSchema<B>): UpstreamSchema<A | B> {
    return {
      read(v, path) {
        try {
          return a.read(v, path);
        } catch (e) {
          if (!(e instanceof SchemaMismatch)) throw e;
          return b.read(v, path);
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
    return schema.read(value, '$');
  } catch (e) {
    if (e instanceof SchemaMismatch) throw malformedUpstream(`${what} with a wrongly typed field (${e.path})`);
    throw e;
  }
}
