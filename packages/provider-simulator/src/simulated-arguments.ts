/** Builds a value that validates against a (simple) JSON schema, deterministically from a seed text. */
export function sampleFromSchema(schema: unknown, seed: string, depth = 0): unknown {
  const s = (schema ?? {}) as Record<string, any>;
  if (depth > 6) return null;
  if (Array.isArray(s.enum) && s.enum.length) return s.enum[hash(seed) % s.enum.length];
  if (s.const !== undefined) return s.const;
  const type = Array.isArray(s.type) ? s.type.find((t: string) => t !== 'null') : s.type;
  if (Array.isArray(s.anyOf) && s.anyOf.length) return sampleFromSchema(s.anyOf[0], seed, depth + 1);
  if (Array.isArray(s.oneOf) && s.oneOf.length) return sampleFromSchema(s.oneOf[0], seed, depth + 1);
  switch (type ?? (s.properties ? 'object' : 'string')) {
    case 'object': {
      const out: Record<string, unknown> = {};
      const props = (s.properties ?? {}) as Record<string, unknown>;
      for (const [k, v] of Object.entries(props)) out[k] = sampleFromSchema(v, `${seed}.${k}`, depth + 1);
      return out;
    }
    case 'array': {
      const n = Math.max(Number(s.minItems ?? 1), 1);
      return Array.from({ length: n }, (_, i) => sampleFromSchema(s.items, `${seed}[${i}]`, depth + 1));
    }
    case 'integer': {
      const min = Number(s.minimum ?? 0);
      const max = Number(s.maximum ?? min + 100);
      return Math.ceil(min) + (hash(seed) % (Math.floor(max) - Math.ceil(min) + 1));
    }
    case 'number': {
      const min = Number(s.minimum ?? 0);
      const max = Number(s.maximum ?? min + 100);
      return min + ((hash(seed) % 1000) / 1000) * (max - min);
    }
    case 'boolean':
      return hash(seed) % 2 === 0;
    case 'null':
      return null;
    default: {
      const base =
        seed
          .replace(/[^a-zA-Z0-9 ]/g, ' ')
          .trim()
          .split(/\s+/)
          .slice(-3)
          .join(' ') || 'value';
      const min = Number(s.minLength ?? 0);
      return base.padEnd(min, 'x').slice(0, s.maxLength ?? 200);
    }
  }
}

export function hash(text: string): number {
  let h = 2166136261;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 16777619);
  }
  return h >>> 0;
}
