import { createHash } from 'node:crypto';
import { invalid, urlOfImagePart, type Message, type StoredTurn, type ToolResultPart, type UserContent } from '@gateway/core';
import { encodeOutputItems } from './responses.output.codec';

export const INPUT_ITEMS_LIMITS = Object.freeze({ default: 20, max: 100 });

export interface InputItemsQuery {
  limit: number;
  order: 'asc' | 'desc';
  after?: string;
}

/** A listed item: every one carries an id, which is what `after` names. */
export type InputItem = { id: string; type: string } & Record<string, unknown>;

const single = (v: unknown, name: string, code: string): string | undefined => {
  if (v === undefined) return undefined;
  if (typeof v !== 'string') throw invalid(code, `"${name}" must be given once, as a plain value.`, name);
  return v;
};

/**
 * `?limit=&order=&after=` of `GET /v1/responses/{id}/input_items`, with OpenAI's defaults (20, newest first).
 * `include` (the SDK sends `include[]=…`) is accepted and ignored: these items have no optional fields to add.
 */
export function decodeInputItemsQuery(query: Record<string, unknown>): InputItemsQuery {
  const max = INPUT_ITEMS_LIMITS.max;
  const limitText = single(query.limit, 'limit', 'invalid_limit');
  const limit = limitText === undefined ? INPUT_ITEMS_LIMITS.default : Number(limitText);
  if (limitText !== undefined && (!/^\d+$/.test(limitText) || limit < 1 || limit > max)) {
    throw invalid(
      'invalid_limit',
      `"limit" must be a whole number from 1 to ${max}; got ${JSON.stringify(limitText.slice(0, 40))}.`,
      'limit',
    );
  }
  const order = single(query.order, 'order', 'invalid_order') ?? 'desc';
  if (order !== 'asc' && order !== 'desc')
    throw invalid('invalid_order', `"order" must be asc or desc; got ${JSON.stringify(order.slice(0, 40))}.`, 'order');
  const after = single(query.after, 'after', 'invalid_cursor') || undefined;
  return { limit, order, after };
}

/** Ids are derived from the response id and the item's position, so every read lists the same ids and `after` pages. */
const stableId = (responseId: string, index: number, kind: string): string =>
  `${kind}_${createHash('sha256').update(`${responseId}#${index}`).digest('hex').slice(0, 32)}`;

const inputPart = (p: UserContent) =>
  p.type === 'text' ? { type: 'input_text', text: p.text } : { type: 'input_image', image_url: urlOfImagePart(p), detail: 'auto' };

/** A tool result as OpenAI lists it: a string when it is all text (as it came in), else input parts. */
const toolOutput = (r: ToolResultPart) =>
  r.content.every((c) => c.type === 'text') ? r.content.map((c) => (c as { text: string }).text).join('') : r.content.map(inputPart);

/**
 * The input that produced a stored response, as Responses items in conversation order: the carried system text
 * first (as one `developer` message), then every message before this response's own output, including the
 * history inherited through `previous_response_id`. Assistant content goes through the output encoder.
 */
export function encodeInputItems(stored: Pick<StoredTurn, 'id' | 'conversation' | 'document'>): InputItem[] {
  let index = 0;
  const itemId = (kind: string) => stableId(stored.id, index++, kind);
  const items: object[] = [];
  const system = stored.conversation.system;
  if (system) items.push({ type: 'message', id: itemId('msg'), role: 'developer', content: [{ type: 'input_text', text: system }] });
  for (const m of inputMessages(stored)) {
    if (m.role === 'user') items.push({ type: 'message', id: itemId('msg'), role: 'user', content: m.content.map(inputPart) });
    else if (m.role === 'assistant') items.push(...encodeOutputItems(m.content, { summary: false, status: 'completed', itemId }));
    else
      for (const r of m.content)
        items.push({ type: 'function_call_output', id: itemId('fco'), call_id: r.toolCallId, output: toolOutput(r), status: 'completed' });
  }
  return items as InputItem[];
}

/** One page in OpenAI's list shape; `after` must name an item of this list (else 400 `invalid_cursor`). */
export function pageInputItems(items: InputItem[], q: InputItemsQuery) {
  const ordered = q.order === 'asc' ? items : [...items].reverse();
  let start = 0;
  if (q.after !== undefined) {
    const at = ordered.findIndex((i) => i.id === q.after);
    if (at < 0)
      throw invalid('invalid_cursor', `"after" ${JSON.stringify(q.after.slice(0, 100))} is not an item of this response's input.`, 'after');
    start = at + 1;
  }
  const data = ordered.slice(start, start + q.limit);
  return {
    object: 'list' as const,
    data,
    first_id: data[0]?.id ?? null,
    last_id: data[data.length - 1]?.id ?? null,
    has_more: start + q.limit < ordered.length,
  };
}

/**
 * The messages that produced a stored response: its conversation without the trailing assistant message that
 * conversationAfter appended, which is there exactly when the rendered response has output.
 */
export function inputMessages(stored: Pick<StoredTurn, 'conversation' | 'document'>): Message[] {
  const { messages } = stored.conversation;
  const output = stored.document.output;
  const appended = Array.isArray(output) && output.length > 0 && messages[messages.length - 1]?.role === 'assistant';
  return appended ? messages.slice(0, -1) : messages;
}
