import type { TextStreamPart, ToolCallPart } from '@gateway/core';
import { encodeParts, encodeResponse, FINISH_REASONS, type ResponseIdentity } from './generate-content.response.codec';

/**
 * Canonical stream parts → `GenerateContentResponse` chunks. Text and thoughts go out as they come; Gemini sends
 * a function call whole, so call arguments are gathered and sent with the last chunk, which also carries
 * finishReason and usageMetadata.
 */
export class GenerateContentChunkEncoder {
  private readonly calls = new Map<number, ToolCallPart>();

  constructor(
    private readonly who: ResponseIdentity,
    private readonly includeThoughts: boolean,
  ) {}

  encode(part: TextStreamPart): object[] {
    switch (part.type) {
      case 'input-usage':
        return []; // Gemini announces usage with the last chunk only
      case 'text-delta':
        return part.delta ? [encodeResponse(this.who, [{ text: part.delta }])] : [];
      case 'reasoning-delta': {
        if (!this.includeThoughts || (!part.delta && !part.signature)) return [];
        const parts = encodeParts([{ type: 'reasoning', text: part.delta, signature: part.signature }], true);
        return [encodeResponse(this.who, parts)];
      }
      case 'tool-call-start':
        this.calls.set(part.index, { type: 'tool-call', id: part.id, name: part.name, arguments: '' });
        return [];
      case 'tool-call-delta': {
        const call = this.calls.get(part.index);
        if (call) call.arguments += part.argumentsDelta;
        return [];
      }
      case 'finish': {
        const calls = encodeParts([...this.calls.values()], false);
        // An empty text part keeps `content.parts` non-empty, as Gemini's own closing chunks do.
        return [encodeResponse(this.who, calls.length ? calls : [{ text: '' }], FINISH_REASONS[part.finishReason], part.usage)];
      }
      case 'native-event':
      case 'forwarded-events':
        // another format's upstream events (only a same-dialect client is offered them): the canonical parts carry the content
        return [];
      case 'hosted-mcp':
        return []; // Gemini requests declare no hosted MCP servers
    }
  }
}
