import {
  invalid,
  type AssistantContent,
  type ImagePart,
  type Message,
  type TextPart,
  type ToolResultPart,
  type UserContent,
} from '@gateway/core';

type Json = Record<string, any>;

/** Anthropic `messages[]` (schema-checked) → canonical messages, plus any text of `role: "system"` messages. */
export interface DecodedConversation {
  system: string[];
  messages: Message[];
}

function unsupported(type: unknown, role: string, at: string): never {
  throw invalid(
    'unsupported_content_block',
    `Content block type ${JSON.stringify(type)} is not supported in a ${role} message.`,
    `${at}.type`,
  );
}

function imageOf(block: Json, at: string): ImagePart {
  const s = block.source as Json;
  if (s.type === 'base64') return { type: 'image', mediaType: s.media_type, data: s.data };
  if (s.type === 'url') return { type: 'image', url: s.url };
  // Files API ids point into Anthropic's own storage, which the gateway does not have.
  throw invalid(
    'unsupported_image_source',
    'Image source type "file" is not supported; send the image as base64 or url.',
    `${at}.source.type`,
  );
}

/** A plain-text document is just text; PDFs and other sources have no canonical part. */
function documentText(block: Json, at: string): TextPart {
  const s = block.source as Json;
  if (s.type === 'text' && typeof s.data === 'string') return { type: 'text', text: s.data };
  throw invalid('unsupported_document_source', 'Only plain-text documents (source.type "text") are supported.', `${at}.source.type`);
}

function toolResultContent(content: unknown, at: string): Array<TextPart | ImagePart> {
  if (content === undefined) return [];
  if (typeof content === 'string') return [{ type: 'text', text: content }];
  return (content as Json[]).map((b, i) => {
    if (b.type === 'text') return { type: 'text', text: String(b.text ?? '') };
    if (b.type === 'image') return imageOf(b, `${at}.content[${i}]`);
    return unsupported(b.type, 'tool_result', `${at}.content[${i}]`);
  });
}

function blocksOf(content: string | Json[]): Json[] {
  return typeof content === 'string' ? [{ type: 'text', text: content }] : content;
}

export function decodeConversation(raw: Json[]): DecodedConversation {
  const system: string[] = [];
  const messages: Message[] = [];
  const toolNames = new Map<string, string>();

  raw.forEach((m, i) => {
    const blocks = blocksOf(m.content);
    const at = (j: number) => `messages[${i}].content[${j}]`;
    if (m.role === 'system') {
      blocks.forEach((b, j) => (b.type === 'text' ? system.push(String(b.text)) : unsupported(b.type, 'system', at(j))));
      return;
    }
    if (m.role === 'assistant') {
      const content: AssistantContent[] = [];
      blocks.forEach((b, j) => {
        if (b.type === 'text') content.push({ type: 'text', text: b.text });
        else if (b.type === 'thinking') content.push({ type: 'reasoning', text: b.thinking, signature: b.signature });
        else if (b.type === 'tool_use') {
          toolNames.set(b.id, b.name);
          content.push({ type: 'tool-call', id: b.id, name: b.name, arguments: JSON.stringify(b.input ?? {}) });
        } else if (b.type !== 'redacted_thinking') unsupported(b.type, 'assistant', at(j));
        // redacted_thinking is opaque to everyone but Anthropic: dropped rather than refused, so histories replay.
      });
      messages.push({ role: 'assistant', content });
      return;
    }
    const results: ToolResultPart[] = [];
    const content: UserContent[] = [];
    blocks.forEach((b, j) => {
      if (b.type === 'text') content.push({ type: 'text', text: b.text });
      else if (b.type === 'image') content.push(imageOf(b, at(j)));
      else if (b.type === 'document') content.push(documentText(b, at(j)));
      else if (b.type === 'tool_result') {
        results.push({
          type: 'tool-result',
          toolCallId: b.tool_use_id,
          name: toolNames.get(b.tool_use_id),
          content: toolResultContent(b.content, at(j)),
          ...(b.is_error ? { isError: true } : {}),
        });
      } else unsupported(b.type, 'user', at(j));
    });
    // Anthropic puts tool results at the head of a user turn; canonically they are their own message, first.
    if (results.length) messages.push({ role: 'tool', content: results });
    if (content.length || !results.length) messages.push({ role: 'user', content });
  });
  return { system, messages };
}
