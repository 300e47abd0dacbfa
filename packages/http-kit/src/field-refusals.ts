import { invalid, type GatewayError } from '@gateway/core';
import type { SchemaFailure, SchemaRefusal } from './validate';

/** How one field of a body is refused: its stable code and wording, whatever the schema keyword that failed. */
export type FieldRefusal = (failure: SchemaFailure) => GatewayError;

/** An unknown field, named with the fields its object knows, so a typo (`expiresAt`) is not silently dropped. */
export const unknownField = (key: string, known: readonly string[]) =>
  invalid('unknown_field', `Unknown field ${JSON.stringify(key.slice(0, 64))}; known: ${known.join(', ')}.`, key);

/** The top-level field a failure belongs to (`limits.requests_per_minute` → `limits`, `models[1]` → `models`). */
const fieldOf = (f: SchemaFailure) => (f.keyword === 'required' && f.at === '' ? f.param : f.at).split(/[.[]/)[0]!;

/** Within one field: its own type first, then an unknown member, a missing one, a bad one. */
const rank = (f: SchemaFailure) =>
  f.keyword === 'additionalProperties' ? 1 : f.keyword === 'required' ? 2 : f.at === fieldOf(f) && f.keyword === 'type' ? 0 : 3;

/**
 * A body's refusals with its own stable codes: an unknown top-level field first (named with `known`, or worded by
 * `unknown` for a field the route refuses on purpose), then the first field of `fields` (in their order) that failed.
 */
export function fieldRefusals(
  fields: Readonly<Record<string, FieldRefusal>>,
  known: readonly string[],
  unknown: Readonly<Record<string, () => GatewayError>> = {},
): SchemaRefusal {
  return (failures) => {
    const extra = failures.find((f) => f.keyword === 'additionalProperties' && f.at === '');
    if (extra) {
      const key = String(extra.params.additionalProperty);
      return unknown[key]?.() ?? unknownField(key, known);
    }
    for (const [name, refuse] of Object.entries(fields)) {
      const own = failures.filter((f) => fieldOf(f) === name).sort((a, b) => rank(a) - rank(b));
      if (own[0]) return refuse(own[0]);
    }
    return undefined;
  };
}
