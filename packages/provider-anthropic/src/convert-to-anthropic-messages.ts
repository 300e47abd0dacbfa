import { type ImagePart, type Message, droppedContent, distinctWarnings, type Warning } from '@gateway/provider-kit';
import { parseToolArguments } from '@gateway/provider-kit';
import type { AnthropicRequestBlock, AnthropicRequestMessage } from './anthropic-api';

function image(p: ImagePart): Extract<AnthropicRequestBlock, { type: 'image' }> {
  return p.data !== undefined
    ? { type: 'image', source: { type: 'base64', media_type: p.mediaType ?? 'image/png', data: p.data } }
    : { type: 'image', source: { type: 'url', url: p.url ?? '' } };
}

function blocksOf(m: Message, warnings: Set<Warning>): AnthropicRequestBlock[] {
  switch (m.role) {
    case 'user':
      return m.content.flatMap((p): AnthropicRequestBlock[] =>
        p.type === 'text' ? (p.text ? [{ type: 'text', text: p.text }] : []) : [image(p)],
      );
    case 'assistant':
      return m.content.flatMap((p): AnthropicRequestBlock[] => {
        if (p.type === 'text') return p.text ? [{ type: 'text', text: p.text }] : [];
        if (p.type === 'reasoning') {
          // Anthropic verifies thinking signatures; reasoning from elsewhere would be rejected.
          if (p.signature) return [{ type: 'thinking', thinking: p.text, signature: p.signature }];
          warnings.add(
            droppedContent('messages.assistant.reasoning', 'reasoning without an Anthropic signature cannot be sent back; dropped'),
          );
          return [];
        }
        const args = parseToolArguments(p.arguments);
        if (!args.ok) warnings.add(droppedContent('messages.assistant.toolCall.arguments', 'not a JSON object; sent as {}'));
        return [{ type: 'tool_use', id: p.id, name: p.name, input: args.value }];
      });
    case 'tool':
      return m.content.map((r) => ({
        type: 'tool_result' as const,
        tool_use_id: r.toolCallId,
        content: r.content.map((c) => (c.type === 'text' ? { type: 'text' as const, text: c.text } : image(c))),
        ...(r.isError ? { is_error: true } : {}),
      }));
  }
}

/**
 * Canonical messages → Anthropic's alternating user/assistant turns. Tool results travel in a user
 * turn; consecutive turns of one role merge, tool results first, as the API requires.
 */
export function convertToAnthropicMessages(messages: Message[]): { messages: AnthropicRequestMessage[]; warnings: Warning[] } {
  const warnings = new Set<Warning>();
  const out: AnthropicRequestMessage[] = [];
  for (const m of messages) {
    const role = m.role === 'assistant' ? 'assistant' : 'user';
    const blocks = blocksOf(m, warnings);
    if (blocks.length === 0) continue;
    const prev = out[out.length - 1];
    if (prev?.role === role) {
      const results = [...prev.content, ...blocks].filter((b) => b.type === 'tool_result');
      const rest = [...prev.content, ...blocks].filter((b) => b.type !== 'tool_result');
      prev.content = [...results, ...rest];
    } else out.push({ role, content: blocks });
  }
  return { messages: out, warnings: distinctWarnings([...warnings]) };
}
