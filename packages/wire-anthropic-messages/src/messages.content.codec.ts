import {
  invalid,
  type AssistantContent,
  type ImagePart,
  type Message,
  type TextPart,
  type ToolResultPart,
  type UserContent,
} from '@gateway/core';
import { isBlock, type MessagesContentBlock, type MessagesRequestBody } from './messages.request.schema';

type Block = MessagesContentBlock;
type RawMessage = MessagesRequestBody['messages'][number];
/** `source` is only loosely typed by the schema (its per-type shape is checked by an if/then). */
type Source = { type?: string; media_type?: string; data?: string; url?: string };

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

function imageOf(block: { source?: Block['source'] }, at: string): ImagePart {
  const s = block.source as Source;
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
function documentText(block: Block, at: string): TextPart {
  const s = block.source as Source;
  if (s.type === 'text' && typeof s.data === 'string') return { type: 'text', text: s.data };
  throw invalid('unsupported_document_source', 'Only plain-text documents (source.type "text") are supported.', `${at}.source.type`);
}

function toolResultContent(content: Block['content'], at: string): Array<TextPart | ImagePart> {
  if (content === undefined) return [];
  if (typeof content === 'string') return [{ type: 'text', text: content }];
  // Nested blocks are checked only for a `type`: read the rest defensively.
  return (content as Array<{ type: string; text?: unknown; tool_name?: unknown; source?: Block['source'] }>).map((b, i) => {
    if (b.type === 'text') return { type: 'text', text: String(b.text ?? '') };
    if (b.type === 'image') return imageOf(b, `${at}.content[${i}]`);
    // tool search (Claude Code's ToolSearch): "load this deferred tool". Anthropic gets the block itself (passthrough);
    // elsewhere every tool is offered from the start, so it only says which one was loaded.
    if (b.type === 'tool_reference') return { type: 'text', text: `Tool ${String(b.tool_name ?? '')} loaded.` };
    return unsupported(b.type, 'tool_result', `${at}.content[${i}]`);
  });
}

/**
 * Assistant blocks dropped rather than refused, so histories replay: redacted_thinking is opaque to everyone but
 * Anthropic; MCP blocks are the gateway's record of its own tool calls (messages.mcp.ts), never the model's.
 */
const REPLAYED_ONLY = new Set(['redacted_thinking', 'mcp_tool_use', 'mcp_tool_result']);

function blocksOf(content: RawMessage['content']): Block[] {
  return typeof content === 'string' ? [{ type: 'text', text: content }] : content;
}

export function decodeConversation(raw: RawMessage[]): DecodedConversation {
  const system: string[] = [];
  const messages: Message[] = [];
  const toolNames = new Map<string, string>();

  raw.forEach((m, i) => {
    const blocks = blocksOf(m.content);
    const at = (j: number) => `messages[${i}].content[${j}]`;
    if (m.role === 'system') {
      blocks.forEach((b, j) => (isBlock(b, 'text') ? system.push(String(b.text)) : unsupported(b.type, 'system', at(j))));
      return;
    }
    if (m.role === 'assistant') {
      const content: AssistantContent[] = [];
      blocks.forEach((b, j) => {
        if (isBlock(b, 'text')) content.push({ type: 'text', text: b.text });
        else if (isBlock(b, 'thinking')) content.push({ type: 'reasoning', text: b.thinking, signature: b.signature });
        else if (isBlock(b, 'tool_use')) {
          toolNames.set(b.id, b.name);
          content.push({ type: 'tool-call', id: b.id, name: b.name, arguments: JSON.stringify(b.input ?? {}) });
        } else if (!REPLAYED_ONLY.has(b.type)) unsupported(b.type, 'assistant', at(j));
      });
      messages.push({ role: 'assistant', content });
      return;
    }
    const results: ToolResultPart[] = [];
    const content: UserContent[] = [];
    blocks.forEach((b, j) => {
      if (isBlock(b, 'text')) content.push({ type: 'text', text: b.text });
      else if (isBlock(b, 'image')) content.push(imageOf(b, at(j)));
      else if (isBlock(b, 'document')) content.push(documentText(b, at(j)));
      else if (isBlock(b, 'tool_result')) {
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
