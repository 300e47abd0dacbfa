/**
 * Gemini's `Schema` (an OpenAPI 3.0 subset with upper-case types, `nullable`, and int64 limits that JSON may carry
 * as strings) → plain JSON Schema, the canonical form of tool parameters and response schemas.
 */
const COPIED = ['description', 'format', 'title', 'pattern', 'minimum', 'maximum', 'default', 'required'] as const;
const INT64 = ['minItems', 'maxItems', 'minLength', 'maxLength', 'minProperties', 'maxProperties'] as const;

export function geminiSchemaToJsonSchema(schema: unknown): Record<string, unknown> {
  if (!schema || typeof schema !== 'object' || Array.isArray(schema)) return {};
  const s = schema as Record<string, any>;
  const out: Record<string, unknown> = {};
  const type = typeof s.type === 'string' && s.type !== 'TYPE_UNSPECIFIED' ? s.type.toLowerCase() : undefined;
  if (type) out.type = s.nullable === true ? [type, 'null'] : type;
  for (const k of COPIED) if (s[k] !== undefined) out[k] = s[k];
  for (const k of INT64) if (s[k] !== undefined && Number.isFinite(Number(s[k]))) out[k] = Number(s[k]);
  if (Array.isArray(s.enum)) out.enum = s.nullable === true ? [...s.enum, null] : s.enum;
  if (s.items) out.items = geminiSchemaToJsonSchema(s.items);
  if (Array.isArray(s.anyOf)) out.anyOf = s.anyOf.map(geminiSchemaToJsonSchema);
  if (s.properties && typeof s.properties === 'object') {
    out.properties = Object.fromEntries(Object.entries(s.properties).map(([k, v]) => [k, geminiSchemaToJsonSchema(v)]));
  }
  return out;
}
