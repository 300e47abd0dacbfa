import { isEventObject, keysIn, type EventJson } from '@gateway/provider-kit';

/**
 * Which Responses stream events may reach a Responses client as text (responses-stream-forwarder.ts): those whose
 * only upstream strings are generated content (text, deltas, refusals, a call's name, arguments and input, encrypted
 * reasoning, logprob tokens), OpenAI's own names (an event type, an item type or status, a part type) and ids of
 * OpenAI's shape (`msg_…`, `rs_…`, `fc_…`, `call_…`: a prefix and letters and digits, nothing a secret could hide in),
 * and OpenAI's padding (`obfuscation`, random characters whose length hides the text's). Anything else (a response
 * object, annotations, a hosted tool's item, an unknown event, field or status) makes the event a native event, which
 * the redacting port reads.
 */

/** An id as OpenAI writes them: a lower-case prefix, an underscore, letters and digits (a pattern's source). */
export const ITEM_ID_SHAPE = '[a-z]+_[A-Za-z0-9]+';
const ITEM_ID = new RegExp(`^${ITEM_ID_SHAPE}$`);

/** Events about one output item, the fields each may carry checked by FIELD below; `item` only in ITEM_EVENTS. */
const ITEM_LEVEL_EVENTS = new Set([
  'response.content_part.added',
  'response.content_part.done',
  'response.output_text.delta',
  'response.output_text.done',
  'response.refusal.delta',
  'response.refusal.done',
  'response.reasoning_summary_part.added',
  'response.reasoning_summary_part.done',
  'response.reasoning_summary_text.delta',
  'response.reasoning_summary_text.done',
  'response.reasoning_text.delta',
  'response.reasoning_text.done',
  'response.function_call_arguments.delta',
  'response.function_call_arguments.done',
  'response.custom_tool_call_input.delta',
  'response.custom_tool_call_input.done',
]);
const ITEM_EVENTS = new Set(['response.output_item.added', 'response.output_item.done']);

const STATUSES = new Set(['in_progress', 'completed', 'incomplete']);
const PART_TYPES = new Set(['output_text', 'refusal', 'summary_text', 'reasoning_text']);
const PART_KEYS = new Set(['type', 'text', 'refusal', 'annotations', 'logprobs']);
const LOGPROB_KEYS = new Set(['token', 'logprob', 'bytes', 'top_logprobs']);

const isString = (v: unknown) => typeof v === 'string';
const isNumber = (v: unknown) => typeof v === 'number';
const isId = (v: unknown) => typeof v === 'string' && ITEM_ID.test(v);
const optional = (v: unknown, check: (v: unknown) => boolean) => v === undefined || check(v);
const listOf = (check: (v: unknown) => boolean) => (v: unknown) => Array.isArray(v) && v.every(check);

/** One token's logprob (its token is generated text), with its alternatives. */
function cleanLogprob(v: unknown): boolean {
  if (!isEventObject(v) || !keysIn(v, LOGPROB_KEYS)) return false;
  return (
    optional(v.token, isString) &&
    optional(v.logprob, isNumber) &&
    optional(v.bytes, listOf(isNumber)) &&
    optional(v.top_logprobs, listOf(cleanLogprob))
  );
}
const cleanLogprobs = listOf(cleanLogprob);

/** A content or summary part: generated text; annotations (citations: URLs, titles, file ids) only when there are none. */
function cleanPart(v: unknown): boolean {
  if (!isEventObject(v) || !keysIn(v, PART_KEYS) || !PART_TYPES.has(v.type as string)) return false;
  return (
    optional(v.text, isString) &&
    optional(v.refusal, isString) &&
    optional(v.annotations, (a) => Array.isArray(a) && a.length === 0) &&
    optional(v.logprobs, cleanLogprobs)
  );
}
const cleanParts = listOf(cleanPart);

/** The output items the full path reads too, with only their generated fields as free strings. */
const ITEMS: Record<string, Record<string, (v: unknown) => boolean>> = {
  message: { role: (v) => v === 'assistant', content: cleanParts },
  reasoning: { summary: cleanParts, content: cleanParts, encrypted_content: (v) => v === null || isString(v) },
  function_call: { call_id: isId, name: isString, arguments: isString },
  custom_tool_call: { call_id: isId, name: isString, input: isString },
};

function cleanItem(v: unknown): boolean {
  if (!isEventObject(v) || typeof v.type !== 'string' || !Object.hasOwn(ITEMS, v.type)) return false;
  const fields = ITEMS[v.type]!;
  return Object.entries(v).every(([k, x]) => {
    if (k === 'type') return true;
    if (k === 'id') return isId(x);
    if (k === 'status') return STATUSES.has(x as string);
    return Object.hasOwn(fields, k) && fields[k]!(x);
  });
}

/** Every field an item-level event may carry, and what its value must be. */
const FIELD: Record<string, (v: unknown) => boolean> = {
  sequence_number: isNumber,
  output_index: isNumber,
  content_index: isNumber,
  summary_index: isNumber,
  item_id: isId,
  delta: isString,
  text: isString,
  refusal: isString,
  arguments: isString,
  input: isString,
  name: isString,
  obfuscation: isString,
  logprobs: cleanLogprobs,
  part: cleanPart,
};

/** Whether an event (parsed) may go as text: no upstream string in it but generated content, OpenAI's names and ids, its padding. */
export function cleanEvent(data: EventJson): boolean {
  const type = data.type;
  if (typeof type !== 'string') return false;
  const item = ITEM_EVENTS.has(type);
  if (!item && !ITEM_LEVEL_EVENTS.has(type)) return false;
  for (const [k, v] of Object.entries(data)) {
    if (k === 'type') continue;
    const ok = k === 'item' ? item && cleanItem(v) : Object.hasOwn(FIELD, k) && FIELD[k]!(v);
    if (!ok) return false;
  }
  return true;
}
