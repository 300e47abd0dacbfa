import type { AssistantContent, TextResult, Warning } from '@gateway/core';
import { mapUpstreamModeration } from '../in-band-moderation';
import { malformedUpstream } from '../upstream-errors';
import type { ChatCompletion, ChatMessage } from './chat-api';
import { mapChatFinishReason, mapChatUsage } from './map-chat-finish-reason';

/** Content may be a string or (some servers) an array of text parts. */
export function chatText(content: ChatMessage['content']): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) return content.map((p) => (typeof p?.text === 'string' ? p.text : '')).join('');
  return '';
}

export function chatReasoning(m: ChatMessage | undefined): string {
  const r = m?.reasoning_content ?? m?.reasoning;
  return typeof r === 'string' ? r : '';
}

/** `chat.completion` → canonical result (first choice; the gateway asks for one). */
export function mapChatCompletion(json: ChatCompletion, requestedModel: string, warnings: Warning[]): TextResult {
  const choice = json.choices?.[0];
  if (!choice) throw malformedUpstream('a chat completion without choices');
  const m = choice.message ?? {};
  const content: AssistantContent[] = [];
  const reasoning = chatReasoning(m);
  if (reasoning) content.push({ type: 'reasoning', text: reasoning });
  const text = chatText(m.content);
  if (text) content.push({ type: 'text', text });
  // A refusal is the model's answer, so it stays visible as text and the finish says why.
  if (m.refusal) content.push({ type: 'text', text: m.refusal });
  (m.tool_calls ?? []).forEach((c, i) => {
    content.push({ type: 'tool-call', id: c.id ?? `call_${i}`, name: c.function?.name ?? '', arguments: c.function?.arguments ?? '' });
  });
  let finishReason = mapChatFinishReason(choice.finish_reason);
  if (m.refusal) finishReason = 'content-filter';
  else if (finishReason === 'stop' && m.tool_calls?.length) finishReason = 'tool-calls';
  return {
    id: json.id,
    model: json.model ?? requestedModel,
    content,
    finishReason,
    usage: mapChatUsage(json.usage),
    warnings,
    ...(json.moderation ? { moderation: mapUpstreamModeration(json.moderation) } : {}),
  };
}
