import { invalid, type AssistantContent, type ImagePart, type Message, type ToolResultPart, type UserContent } from '@gateway/core';
import type { GeminiContent, GeminiPart, GenerateContentRequestBody } from './generate-content.request.schema';

function unsupportedPart(p: GeminiPart, at: string): never {
  const key = Object.keys(p).find((k) => k !== 'thought' && k !== 'thoughtSignature') ?? '(empty)';
  throw invalid(
    'unsupported_part',
    `Part field ${JSON.stringify(key)} is not supported here; use text, inlineData, fileData, functionCall or functionResponse.`,
    `${at}.${key}`,
  );
}

function imageOf(p: GeminiPart, at: string): ImagePart | undefined {
  if (p.inlineData) {
    const mime = String(p.inlineData.mimeType);
    if (!mime.startsWith('image/'))
      throw invalid(
        'unsupported_mime_type',
        `inlineData of type ${JSON.stringify(mime)} is not supported; only images are.`,
        `${at}.inlineData.mimeType`,
      );
    return { type: 'image', mediaType: mime, data: p.inlineData.data };
  }
  if (p.fileData) {
    const mime = p.fileData.mimeType;
    if (mime && !mime.startsWith('image/'))
      throw invalid(
        'unsupported_mime_type',
        `fileData of type ${JSON.stringify(mime)} is not supported; only images are.`,
        `${at}.fileData.mimeType`,
      );
    return { type: 'image', url: p.fileData.fileUri, ...(mime ? { mediaType: mime } : {}) };
  }
  return undefined;
}

/**
 * Gemini pairs calls and responses by name (ids are optional). Canonical tool calls need ids, so a call without
 * one gets `<name>_<n>`, and a response without one takes the oldest unanswered call of that name.
 */
class CallIds {
  private readonly pending = new Map<string, string[]>();
  private count = 0;

  forCall(name: string, id: string | undefined): string {
    const callId = id ?? `${name}_${this.count++}`;
    this.pending.set(name, [...(this.pending.get(name) ?? []), callId]);
    return callId;
  }

  forResponse(name: string, id: string | undefined): string {
    const queue = this.pending.get(name) ?? [];
    const at = id === undefined ? 0 : queue.indexOf(id);
    if (at >= 0 && queue.length) return queue.splice(at, 1)[0]!;
    return id ?? name;
  }
}

/** `contents[]` (schema-checked) → canonical messages. */
export function decodeContents(contents: GeminiContent[]): Message[] {
  const ids = new CallIds();
  const messages: Message[] = [];
  contents.forEach((c, i) => {
    const parts = c.parts;
    const at = (j: number) => `contents[${i}].parts[${j}]`;
    if (c.role === 'model') {
      const content: AssistantContent[] = parts.map((p, j) => {
        if (typeof p.text === 'string') {
          return p.thought
            ? { type: 'reasoning', text: p.text, ...(p.thoughtSignature ? { signature: p.thoughtSignature } : {}) }
            : { type: 'text', text: p.text };
        }
        if (p.functionCall) {
          const f = p.functionCall;
          return { type: 'tool-call', id: ids.forCall(f.name, f.id), name: f.name, arguments: JSON.stringify(f.args ?? {}) };
        }
        return unsupportedPart(p, at(j));
      });
      messages.push({ role: 'assistant', content });
      return;
    }
    const results: ToolResultPart[] = [];
    const content: UserContent[] = [];
    parts.forEach((p, j) => {
      if (typeof p.text === 'string') content.push({ type: 'text', text: p.text });
      else if (p.functionResponse) {
        const f = p.functionResponse;
        results.push({
          type: 'tool-result',
          toolCallId: ids.forResponse(f.name, f.id),
          name: f.name,
          content: [{ type: 'text', text: JSON.stringify(f.response) }],
        });
      } else content.push(imageOf(p, at(j)) ?? unsupportedPart(p, at(j)));
    });
    if (results.length) messages.push({ role: 'tool', content: results });
    if (content.length || !results.length) messages.push({ role: 'user', content });
  });
  return messages;
}

/** `systemInstruction` → canonical system text; only text parts mean anything there. */
export function decodeSystemInstruction(si: GenerateContentRequestBody['systemInstruction']): string | undefined {
  if (!si) return undefined;
  const texts = si.parts.map((p, j) => (typeof p.text === 'string' ? p.text : unsupportedPart(p, `systemInstruction.parts[${j}]`)));
  const text = texts.join('\n');
  return text === '' ? undefined : text;
}
