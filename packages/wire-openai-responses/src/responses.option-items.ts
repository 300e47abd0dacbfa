import { responsesRequestSchema } from './responses.request.schema';

/**
 * Input items that only set options, such as Codex's `{type: "configuration_update", ...}`: an item whose type ends
 * in `_update` and that carries no content. Each is taken out of `input` and the settings it carries that a create
 * body accepts are applied to the body, later items over earlier ones and over the body's own. An item of another
 * type, or one that carries content, stays in `input`, where an unknown type still gets its clear 400.
 */

/** Fields that make an item conversation content rather than options. */
const CONTENT_FIELDS = ['role', 'content', 'output', 'arguments', 'summary', 'encrypted_content', 'result', 'call_id'];

/** Body fields an item may not set: the conversation itself and the transport. */
const NOT_SETTINGS = new Set(['input', 'stream', 'previous_response_id']);

const SETTINGS = Object.keys(responsesRequestSchema.properties).filter((k) => !NOT_SETTINGS.has(k));

type Obj = Record<string, unknown>;
const isObject = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

export function isOptionItem(item: unknown): item is Obj {
  return (
    isObject(item) && typeof item.type === 'string' && item.type.endsWith('_update') && CONTENT_FIELDS.every((f) => item[f] === undefined)
  );
}

/** The raw create body with its option items applied (before the schema checks what they set). */
export function applyOptionItems(raw: unknown): unknown {
  if (!isObject(raw) || !Array.isArray(raw.input) || !raw.input.some(isOptionItem)) return raw;
  const body: Obj = { ...raw, input: raw.input.filter((item) => !isOptionItem(item)) };
  for (const item of raw.input.filter(isOptionItem)) {
    for (const key of SETTINGS) if (item[key] !== undefined) body[key] = item[key];
  }
  return body;
}
