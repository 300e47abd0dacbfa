import { invalid, type GatewayError } from '@gateway/core';
import type { SchemaFailure, SchemaRefusal } from './validate';

/** How a format words each of its `x-refusal` codes, given where it failed and the value found there. */
export type RefusalWording = Readonly<Record<string, (at: string, value: unknown) => string>>;

/** The refusal for an unknown field: `key` as sent, `at` its full path, `allowed` its siblings in the schema. */
export type UnknownFieldRefusal = (key: string, at: string, allowed: string[]) => GatewayError;

function codeOf(failure: SchemaFailure): string | undefined {
  const rule = failure.schema['x-refusal'];
  if (typeof rule === 'string') return rule;
  if (rule && typeof rule === 'object') return (rule as Record<string, string>)[failure.keyword];
  return undefined;
}

/**
 * Refusals read off the schema: a node's `x-refusal` names the stable code it answers with (one code, or one per
 * keyword), `wording` says it in the format's words. An unknown field comes first, as a reader checks a body; then
 * the first failure whose node names a code. Anything else falls back to the generic wording of compileValidator.
 */
export function refusalsFromSchema(wording: RefusalWording, unknownField: UnknownFieldRefusal): SchemaRefusal {
  return (failures) => {
    const unknown = failures.find((f) => f.keyword === 'additionalProperties');
    if (unknown) {
      const allowed = Object.keys((unknown.schema.properties ?? {}) as object);
      return unknownField(String(unknown.params.additionalProperty), unknown.param, allowed);
    }
    for (const failure of failures) {
      const code = codeOf(failure);
      const word = code ? wording[code] : undefined;
      if (code && word) {
        const at = failure.keyword === 'required' ? failure.param : failure.at;
        return invalid(code, word(at, failure.value), at || undefined);
      }
    }
    return undefined;
  };
}

/**
 * JSON encoders write optional fields as null (and forms as ''): such members count as absent, at every depth, so a
 * format removes them before its schema check. `absent` says which values a format treats so.
 */
export function withoutAbsentMembers(value: unknown, absent: (v: unknown) => boolean = (v) => v === null): unknown {
  if (Array.isArray(value)) return value.map((v) => withoutAbsentMembers(v, absent));
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([, v]) => !absent(v))
      .map(([k, v]) => [k, withoutAbsentMembers(v, absent)]),
  );
}
