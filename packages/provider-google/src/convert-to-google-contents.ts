import { type ImagePart, type Message, droppedContent, distinctWarnings, type Warning } from '@gateway/provider-kit';
import { parseToolArguments } from '@gateway/provider-kit';
import type { GoogleContent, GooglePart } from './google-api';

function image(p: ImagePart): GooglePart {
  if (p.data !== undefined) return { inlineData: { mimeType: p.mediaType ?? 'image/png', data: p.data } };
  return { fileData: { fileUri: p.url ?? '', ...(p.mediaType ? { mimeType: p.mediaType } : {}) } };
}

export interface ContentsOptions {
  /** put on a functionCall part that has no signature of its own (Gemini 3 insists on one) */
  fallbackThoughtSignature?: string;
}

/**
 * Canonical messages → `contents[]`. Gemini matches a function response to its call by name, so each
 * tool result's name is looked up from the latest assistant call with its id. Call ids are not sent.
 */
export function convertToGoogleContents(
  messages: Message[],
  opts: ContentsOptions = {},
): { contents: GoogleContent[]; warnings: Warning[] } {
  const warnings = new Set<Warning>();
  const callNames = new Map<string, string>();
  const contents: GoogleContent[] = [];
  const push = (role: 'user' | 'model', parts: GooglePart[]) => {
    if (parts.length === 0) return;
    const prev = contents[contents.length - 1];
    if (prev?.role === role) prev.parts!.push(...parts);
    else contents.push({ role, parts });
  };
  for (const m of messages) {
    if (m.role === 'user') {
      push(
        'user',
        m.content.map((p) => (p.type === 'text' ? { text: p.text } : image(p))),
      );
    } else if (m.role === 'assistant') {
      const parts: GooglePart[] = [];
      let pendingSignature: string | undefined;
      for (const p of m.content) {
        if (p.type === 'reasoning') {
          // An empty signed reasoning part is a signature that belonged to the next part.
          if (p.signature && !p.text) pendingSignature = p.signature;
          else if (p.signature) parts.push({ text: p.text, thought: true, thoughtSignature: p.signature });
          else
            warnings.add(
              droppedContent('messages.assistant.reasoning', 'reasoning without a Gemini thought signature cannot be sent back; dropped'),
            );
          continue;
        }
        const signature = pendingSignature;
        pendingSignature = undefined;
        if (p.type === 'text') {
          if (p.text) parts.push({ text: p.text, ...(signature ? { thoughtSignature: signature } : {}) });
          continue;
        }
        callNames.set(p.id, p.name);
        const args = parseToolArguments(p.arguments);
        if (!args.ok) warnings.add(droppedContent('messages.assistant.toolCall.arguments', 'not a JSON object; sent as {}'));
        const sig = signature ?? opts.fallbackThoughtSignature;
        parts.push({ functionCall: { name: p.name, args: args.value }, ...(sig ? { thoughtSignature: sig } : {}) });
      }
      push('model', parts);
    } else {
      push(
        'user',
        m.content.map((r) => {
          const text = r.content.map((c) => (c.type === 'text' ? c.text : '')).join('');
          if (r.content.some((c) => c.type === 'image'))
            warnings.add(droppedContent('messages.tool.content.image', 'Gemini function responses carry JSON only; image dropped'));
          return {
            functionResponse: {
              name: callNames.get(r.toolCallId) ?? r.name ?? r.toolCallId,
              response: r.isError ? { error: text } : { output: text },
            },
          };
        }),
      );
    }
  }
  return { contents, warnings: distinctWarnings([...warnings]) };
}
