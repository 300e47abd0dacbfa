/**
 * Builds a value that validates against a JSON schema (tool parameters, structured output),
 * deterministically from a seed text. Required properties are always filled, optional ones
 * sometimes; numbers are whole unless a bound forbids it; enums, formats and bounds are respected.
 * Gemini's upper-case type names (`OBJECT`, `STRING`) and OpenAPI's `nullable` are read too.
 */
type Schema = Record<string, any>;

const MAX_DEPTH = 8;

export function sampleFromSchema(schema: unknown, seed: string): unknown {
  const root = (schema ?? {}) as Schema;
  return sample(root, root, seed, 0);
}

function resolveRef(s: Schema, root: Schema): Schema {
  if (typeof s.$ref !== 'string' || !s.$ref.startsWith('#')) return s;
  let at: any = root;
  for (const key of s.$ref.slice(1).split('/').filter(Boolean)) at = at?.[decodeURIComponent(key.replace(/~1/g, '/').replace(/~0/g, '~'))];
  return (at ?? {}) as Schema;
}

function typeOf(s: Schema): string | undefined {
  const t = Array.isArray(s.type) ? s.type.find((x: string) => String(x).toLowerCase() !== 'null') : s.type;
  if (typeof t === 'string') return t.toLowerCase();
  if (s.properties) return 'object';
  if (s.items) return 'array';
  return undefined;
}

function sample(input: Schema, root: Schema, seed: string, depth: number): unknown {
  const s = resolveRef(input, root);
  if (depth > MAX_DEPTH) return null;
  if (s.const !== undefined) return s.const;
  if (Array.isArray(s.enum) && s.enum.length) return s.enum[hash(seed) % s.enum.length];
  const alternatives = (s.anyOf ?? s.oneOf) as Schema[] | undefined;
  if (Array.isArray(alternatives) && alternatives.length) {
    // a nullable field written as anyOf [X, null]: answer with X
    const pick = alternatives.find((a) => typeOf(resolveRef(a, root)) !== 'null') ?? alternatives[0]!;
    return sample(pick, root, seed, depth + 1);
  }
  if (Array.isArray(s.allOf) && s.allOf.length)
    return sample(Object.assign({}, ...s.allOf.map((a: Schema) => resolveRef(a, root))), root, seed, depth + 1);
  switch (typeOf(s) ?? 'string') {
    case 'object':
      return sampleObject(s, root, seed, depth);
    case 'array': {
      const min = Math.max(Number(s.minItems ?? 1), 0);
      const n = Math.min(Math.max(min, 1), Number(s.maxItems ?? Infinity), 3 + min);
      if (Array.isArray(s.prefixItems)) return s.prefixItems.map((p: Schema, i: number) => sample(p, root, `${seed}[${i}]`, depth + 1));
      return Array.from({ length: n }, (_, i) => sample((s.items ?? {}) as Schema, root, `${seed}[${i}]`, depth + 1));
    }
    case 'integer':
      return sampleNumber(s, seed, true);
    case 'number':
      return sampleNumber(s, seed, false);
    case 'boolean':
      return hash(seed) % 2 === 0;
    case 'null':
      return null;
    default:
      return sampleString(s, seed);
  }
}

function sampleObject(s: Schema, root: Schema, seed: string, depth: number): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const props = (s.properties ?? {}) as Record<string, Schema>;
  const required = new Set<string>(Array.isArray(s.required) ? s.required : []);
  for (const [k, v] of Object.entries(props)) {
    if (required.has(k) || hash(`${seed}?${k}`) % 2 === 0) out[k] = sample(v, root, `${seed}.${k}`, depth + 1);
  }
  return out;
}

/** Whole numbers in range; a fraction only where the bounds leave no whole number (or multipleOf asks for one). */
function sampleNumber(s: Schema, seed: string, integer: boolean): number {
  const exMin = typeof s.exclusiveMinimum === 'number' ? s.exclusiveMinimum : undefined;
  const exMax = typeof s.exclusiveMaximum === 'number' ? s.exclusiveMaximum : undefined;
  const lo = s.minimum !== undefined ? Number(s.minimum) : exMin !== undefined ? exMin : undefined;
  const hi = s.maximum !== undefined ? Number(s.maximum) : exMax !== undefined ? exMax : undefined;
  const step = typeof s.multipleOf === 'number' && s.multipleOf > 0 ? s.multipleOf : 1;
  const from = Math.ceil((lo ?? (hi !== undefined ? Math.min(0, hi - 100) : 0)) / step) * step;
  const to = Math.floor((hi ?? from + 100) / step) * step;
  const candidates: number[] = [];
  for (let v = from; v <= to && candidates.length < 200; v += step) {
    if ((exMin === undefined || v > exMin) && (exMax === undefined || v < exMax)) candidates.push(Number(v.toFixed(10)));
  }
  if (candidates.length) return candidates[hash(seed) % candidates.length]!;
  if (integer) return Math.ceil(lo ?? 0);
  // no multiple of the step fits: the midpoint of the bounds
  return ((lo ?? 0) + (hi ?? (lo ?? 0) + 1)) / 2;
}

const FORMATS: Record<string, (h: number) => string> = {
  'date-time': (h) => new Date(Date.UTC(2025, h % 12, 1 + (h % 28), h % 24)).toISOString(),
  date: (h) => new Date(Date.UTC(2025, h % 12, 1 + (h % 28))).toISOString().slice(0, 10),
  time: (h) => `${String(h % 24).padStart(2, '0')}:${String(h % 60).padStart(2, '0')}:00Z`,
  email: (h) => `user${h % 1000}@example.com`,
  uri: (h) => `https://example.com/item/${h % 1000}`,
  url: (h) => `https://example.com/item/${h % 1000}`,
  uuid: (h) => {
    const x = h.toString(16).padStart(8, '0');
    return `${x}-0000-4000-8000-${x}0000`;
  },
  ipv4: (h) => `10.0.${(h >>> 8) % 256}.${h % 256}`,
  hostname: (h) => `host${h % 1000}.example.com`,
};

function sampleString(s: Schema, seed: string): string {
  const h = hash(seed);
  const format = typeof s.format === 'string' ? FORMATS[s.format] : undefined;
  if (format) return format(h);
  const base =
    seed
      .replace(/[^a-zA-Z0-9 ]/g, ' ')
      .trim()
      .split(/\s+/)
      .slice(-3)
      .join(' ') || 'value';
  const min = Number(s.minLength ?? 0);
  const max = s.maxLength !== undefined ? Number(s.maxLength) : 200;
  return base.padEnd(min, 'x').slice(0, Math.max(max, 0));
}

export function hash(text: string): number {
  let h = 2166136261;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 16777619);
  }
  return h >>> 0;
}
