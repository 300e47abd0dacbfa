import type { StreamForwarding, TextStreamPart, ToolCallPart } from '@gateway/core';
import type { SseMessage } from '@gateway/http-kit';
import { encodeParts, encodeResponse, FINISH_REASONS, type ResponseIdentity } from './generate-content.response.codec';

/**
 * Canonical stream parts → `GenerateContentResponse` chunks. Text and thoughts go out as they come; Gemini sends
 * a function call whole, so call arguments are gathered and sent with the last chunk, which also carries
 * finishReason and usageMetadata.
 */
export class GenerateContentChunkEncoder {
  private readonly calls = new Map<number, ToolCallPart>();
  /** the stream relays the upstream's events: the canonical parts beside them are not encoded */
  private forwarded = false;

  constructor(
    private readonly who: ResponseIdentity,
    private readonly includeThoughts: boolean,
  ) {}

  /** The offer to take the upstream's own events (core stream-forwarding.ts): the fields encodeResponse() writes last in each. */
  forwarding(): StreamForwarding {
    return { dialect: 'gemini-content', fields: { modelVersion: this.who.modelVersion, responseId: this.who.responseId } };
  }

  /**
   * The SSE messages for one part. Forwarded events (and upstream events handed over as native events) go as they
   * are: they already are this answer's events, the last with the finish reason and the usage, so the parts that come
   * with them (the finish) add nothing.
   */
  messages(part: TextStreamPart): SseMessage[] {
    if (part.type === 'forwarded-events') {
      this.forwarded = true;
      return part.text ? [{ raw: part.text }] : [];
    }
    if (part.type === 'native-event') {
      if (part.dialect !== 'gemini-content') return [];
      this.forwarded = true;
      return [{ data: part.data }];
    }
    if (this.forwarded) return [];
    return this.encode(part).map((data) => ({ data }));
  }

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
        // relayed by messages(); the JSON array answer is never offered them, and the canonical parts carry the content
        return [];
      case 'hosted-mcp':
        return []; // Gemini requests declare no hosted MCP servers
    }
  }
}
