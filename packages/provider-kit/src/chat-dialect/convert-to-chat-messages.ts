import { type Message, type TextRequest, droppedContent, distinctWarnings, type Warning } from '@gateway/core';
import { imageUrl, toolResultText } from '../conversion-helpers';
import type { ChatContentPart, ChatRequestMessage } from './chat-api';
import type { ChatDialect } from './chat-dialect';

/** Canonical system + messages → chat `messages[]`; what the dialect cannot carry is reported. */
export function convertToChatMessages(req: TextRequest, dialect: ChatDialect): { messages: ChatRequestMessage[]; warnings: Warning[] } {
  const warnings = new Set<Warning>();
  const out: ChatRequestMessage[] = [];
  if (req.system) out.push({ role: dialect.systemRole, content: req.system });
  for (const m of req.messages) out.push(...convertMessage(m, dialect, warnings));
  return { messages: out, warnings: distinctWarnings([...warnings]) };
}

function convertMessage(m: Message, dialect: ChatDialect, warnings: Set<Warning>): ChatRequestMessage[] {
  switch (m.role) {
    case 'user': {
      const parts: ChatContentPart[] = [];
      for (const p of m.content) {
        if (p.type === 'text') parts.push({ type: 'text', text: p.text });
        else if (dialect.supportsImages) parts.push({ type: 'image_url', image_url: { url: imageUrl(p) } });
        else warnings.add(droppedContent('messages.content.image', 'the upstream takes no images; image dropped'));
      }
      // A lone text part goes as a plain string: every server understands that form.
      const content = parts.length === 1 && parts[0]?.type === 'text' ? parts[0].text : parts;
      return [{ role: 'user', content, ...(m.name ? { name: m.name } : {}) }];
    }
    case 'assistant': {
      const text = m.content
        .filter((p) => p.type === 'text')
        .map((p) => p.text)
        .join('');
      const reasoning = m.content
        .filter((p) => p.type === 'reasoning')
        .map((p) => p.text)
        .join('');
      const calls = m.content.flatMap((p) => (p.type === 'tool-call' ? [p] : []));
      return [
        {
          role: 'assistant',
          content: text || (calls.length ? null : ''),
          ...(calls.length
            ? {
                tool_calls: calls.map((c) => ({ id: c.id, type: 'function' as const, function: { name: c.name, arguments: c.arguments } })),
              }
            : {}),
          ...(reasoning && dialect.sendReasoningHistory ? { [dialect.reasoningField]: reasoning } : {}),
        },
      ];
    }
    case 'tool':
      return m.content.map((r) => {
        const { text, droppedImages } = toolResultText(r.content);
        if (droppedImages)
          warnings.add(droppedContent('messages.tool.content.image', 'chat-completions tool messages carry text only; image dropped'));
        if (r.isError)
          warnings.add(droppedContent('messages.tool.isError', 'chat-completions has no error flag on tool results; sent as plain text'));
        return { role: 'tool' as const, tool_call_id: r.toolCallId, content: text };
      });
  }
}
