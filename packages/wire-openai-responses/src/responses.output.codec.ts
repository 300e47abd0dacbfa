import { newItemIdOf } from './item-references';
import { type AssistantContent, type ToolCallPart, type Usage } from '@gateway/core';

export type ItemStatus = 'in_progress' | 'completed' | 'incomplete';
export type ItemKind = 'msg' | 'fc' | 'rs';

/** A new output item id; given its response's id, one an `item_reference` can find again (item-references.ts). */
export const newItemId = (kind: ItemKind, responseId?: string): string => newItemIdOf(kind, responseId);

export const outputText = (text: string) => ({ type: 'output_text', text, annotations: [], logprobs: [] });

export const messageItem = (id: string, text: string, status: ItemStatus) => ({
  type: 'message',
  id,
  status,
  role: 'assistant',
  content: status === 'in_progress' ? [] : [outputText(text)],
});

export const functionCallItem = (id: string, call: Pick<ToolCallPart, 'id' | 'name' | 'arguments'>, status: ItemStatus) => ({
  type: 'function_call',
  id,
  call_id: call.id,
  name: call.name,
  arguments: call.arguments,
  status,
});

/**
 * Reasoning text travels as `reasoning_text` content; it is repeated as a summary only when the caller
 * asked for one. A provider signature rides in `encrypted_content` so it comes back unchanged as input.
 */
export function reasoningItem(id: string, text: string, o: { signature?: string; summary: boolean; status: ItemStatus }) {
  const done = o.status !== 'in_progress';
  return {
    type: 'reasoning',
    id,
    status: o.status,
    summary: done && o.summary ? [{ type: 'summary_text', text }] : [],
    content: done ? [{ type: 'reasoning_text', text }] : [],
    ...(o.signature ? { encrypted_content: o.signature } : {}),
  };
}

/**
 * Canonical content → output items, in order: one item per reasoning part, text run and tool call. `itemId`
 * names each item as it is made (fresh ids by default; the input-items list passes stable ones).
 */
export function encodeOutputItems(
  content: AssistantContent[],
  o: { summary: boolean; status: ItemStatus; itemId?: (kind: ItemKind) => string },
): object[] {
  const newItem = o.itemId ?? newItemId;
  const items: object[] = [];
  let text: { id: string; text: string } | undefined;
  const flush = () => {
    if (text) items.push(messageItem(text.id, text.text, o.status));
    text = undefined;
  };
  for (const p of content) {
    if (p.type === 'text') {
      text ??= { id: newItem('msg'), text: '' };
      text.text += p.text;
      continue;
    }
    flush();
    if (p.type === 'reasoning')
      items.push(reasoningItem(newItem('rs'), p.text, { signature: p.signature, summary: o.summary, status: o.status }));
    else items.push(functionCallItem(newItem('fc'), p, o.status));
  }
  flush();
  return items;
}

/**
 * OpenAI's responses usage, plus the chat-shaped names the service spec lists ("same shape as chat
 * usage"): extra keys cost SDK clients nothing and serve both readers.
 */
export function encodeResponsesUsage(u: Usage) {
  const reasoning = u.reasoningTokens ?? 0;
  const cached = u.cachedInputTokens ?? 0;
  return {
    input_tokens: u.inputTokens,
    input_tokens_details: { cached_tokens: cached, cache_write_tokens: u.cacheCreationInputTokens ?? 0 },
    output_tokens: u.outputTokens,
    output_tokens_details: { reasoning_tokens: reasoning },
    total_tokens: u.totalTokens,
    prompt_tokens: u.inputTokens,
    completion_tokens: u.outputTokens,
    prompt_tokens_details: { cached_tokens: cached, text_tokens: u.inputTokens, audio_tokens: 0, image_tokens: 0 },
    completion_tokens_details: { text_tokens: u.outputTokens - reasoning, audio_tokens: 0, reasoning_tokens: reasoning },
  };
}
