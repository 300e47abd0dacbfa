import {
  imagePartFromUrl,
  invalid,
  type AssistantContent,
  type Message,
  type StoredConversation,
  type ToolResultPart,
  type UserContent,
} from '@gateway/core';
import { isItem, type ResponsesContentPart, type ResponsesInput } from './responses.request.schema';

/** Message content: the message rule (if/then) checked each part against `contentPart`. */
type Content = string | ResponsesContentPart[];

/** Opens a compaction item's `encrypted_content` (throws invalid_request when it does not open). */
export type CompactionOpener = (encryptedContent: string, param: string) => StoredConversation;

function userParts(content: Content, at: string): UserContent[] {
  if (typeof content === 'string') return [{ type: 'text', text: content }];
  return content.map((p, i) => {
    if (p.type === 'input_text' || p.type === 'output_text') return { type: 'text', text: String(p.text ?? '') };
    if (p.type === 'input_image') {
      if (typeof p.image_url === 'string' && p.image_url) return imagePartFromUrl(p.image_url);
      throw invalid(
        'unsupported_image_source',
        'Give "input_image" as "image_url" (an https or data URL); file ids are not served by this gateway.',
        `${at}[${i}].image_url`,
      );
    }
    throw invalid(
      'unsupported_content_part',
      `Content part type ${JSON.stringify(p.type)} is not supported here; use input_text or input_image.`,
      `${at}[${i}].type`,
    );
  });
}

function assistantParts(content: Content, at: string): AssistantContent[] {
  if (typeof content === 'string') return [{ type: 'text', text: content }];
  return content.map((p, i) => {
    if (p.type === 'output_text' || p.type === 'input_text') return { type: 'text', text: String(p.text ?? '') };
    if (p.type === 'refusal') return { type: 'text', text: String(p.refusal ?? '') };
    throw invalid(
      'unsupported_content_part',
      `Content part type ${JSON.stringify(p.type)} is not supported in an assistant message; use output_text.`,
      `${at}[${i}].type`,
    );
  });
}

const plainText = (content: Content): string =>
  typeof content === 'string' ? content : content.map((p) => (typeof p.text === 'string' ? p.text : '')).join('');

export interface DecodedInput {
  /** system/developer items, in order */
  system: string[];
  messages: Message[];
}

/**
 * Input items → canonical messages. Adjacent assistant-side items (message, function_call, reasoning)
 * join one assistant message and adjacent function_call_output items one tool message, as the canonical
 * model expects. `history` supplies tool names for outputs that answer calls of earlier responses.
 */
export function decodeInput(input: ResponsesInput | null | undefined, open: CompactionOpener, history: Message[] = []): DecodedInput {
  const out: DecodedInput = { system: [], messages: [] };
  if (input === null || input === undefined) return out;
  if (typeof input === 'string') {
    out.messages.push({ role: 'user', content: [{ type: 'text', text: input }] });
    return out;
  }
  const callNames = new Map<string, string>();
  const noteCalls = (ms: Message[]) => {
    for (const m of ms) if (m.role === 'assistant') for (const p of m.content) if (p.type === 'tool-call') callNames.set(p.id, p.name);
  };
  noteCalls(history);
  const assistant = (parts: AssistantContent[]) => {
    const last = out.messages[out.messages.length - 1];
    if (last?.role === 'assistant') last.content.push(...parts);
    else out.messages.push({ role: 'assistant', content: parts });
  };

  input.forEach((item, i) => {
    const at = `input[${i}]`;
    const type = item.type ?? 'message';
    if (type === 'message') {
      // The message rule (if/then) required role and content and checked each part.
      const content = item.content as Content;
      if (item.role === 'system' || item.role === 'developer') out.system.push(plainText(content));
      else if (item.role === 'user') out.messages.push({ role: 'user', content: userParts(content, `${at}.content`) });
      else assistant(assistantParts(content, `${at}.content`));
    } else if (isItem(item, 'function_call')) {
      callNames.set(item.call_id, item.name);
      assistant([{ type: 'tool-call', id: item.call_id, name: item.name, arguments: item.arguments }]);
    } else if (isItem(item, 'function_call_output')) {
      const content =
        typeof item.output === 'string' ? [{ type: 'text' as const, text: item.output }] : userParts(item.output, `${at}.output`);
      const part: ToolResultPart = { type: 'tool-result', toolCallId: item.call_id, name: callNames.get(item.call_id), content };
      const last = out.messages[out.messages.length - 1];
      if (last?.role === 'tool') last.content.push(part);
      else out.messages.push({ role: 'tool', content: [part] });
    } else if (type === 'reasoning') {
      const blocks: Array<{ text?: unknown }> = Array.isArray(item.content) && item.content.length ? item.content : (item.summary ?? []);
      const text = blocks.map((b) => String(b.text ?? '')).join('\n');
      assistant([{ type: 'reasoning', text, ...(item.encrypted_content ? { signature: item.encrypted_content } : {}) }]);
    } else if (isItem(item, 'compaction')) {
      const expanded = open(item.encrypted_content, `${at}.encrypted_content`);
      if (expanded.system) out.system.push(expanded.system);
      out.messages.push(...expanded.messages);
      noteCalls(expanded.messages);
    } else {
      throw invalid(
        'unsupported_input_item',
        `Input item type ${JSON.stringify(type)} is not supported; use message, function_call, function_call_output, reasoning or compaction.`,
        `${at}.type`,
      );
    }
  });
  return out;
}
