import type { StreamForwarding, TextStreamPart } from '@gateway/core';
import type { SseMessage } from '@gateway/http-kit';
import { encodeModeration, encodeUsage, FINISH_REASONS, SYSTEM_FINGERPRINT } from './chat.response.codec';

/** Turns canonical stream parts into `chat.completion.chunk` objects, in order. */
export class ChatChunkEncoder {
  private started = false;
  /** the stream relays the upstream's chunks: the canonical parts beside them are not encoded */
  private forwarded = false;

  constructor(
    private readonly id: string,
    private readonly model: string,
    private readonly created: number,
    private readonly includeUsage: boolean,
  ) {}

  private chunk(delta: Record<string, unknown>, finishReason: string | null = null) {
    return {
      id: this.id,
      object: 'chat.completion.chunk',
      created: this.created,
      model: this.model,
      system_fingerprint: SYSTEM_FINGERPRINT,
      choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }],
      ...(this.includeUsage ? { usage: null } : {}),
    };
  }

  /**
   * The offer to take the upstream's own chunks (core stream-forwarding.ts): the fields every chunk of this answer
   * carries before its choices, as `chunk()` writes them.
   */
  forwarding(): StreamForwarding {
    const fields = {
      id: this.id,
      object: 'chat.completion.chunk',
      created: this.created,
      model: this.model,
      system_fingerprint: SYSTEM_FINGERPRINT,
    };
    return { dialect: 'openai-chat', fields };
  }

  /**
   * The events for one part. Forwarded chunks (and upstream chunks handed over as native events) go as they are:
   * they already are this answer's chunks, the first with the role, the last with the finish and (when asked) the
   * usage, so the parts that come with them (the finish) add nothing.
   */
  messages(part: TextStreamPart): SseMessage[] {
    if (part.type === 'forwarded-events') {
      this.forwarded = true;
      return part.text ? [{ raw: part.text }] : [];
    }
    if (part.type === 'native-event') {
      if (part.dialect !== 'openai-chat') return [];
      this.forwarded = true;
      return [{ data: part.data }];
    }
    if (this.forwarded) return [];
    return this.encode(part).map((data) => ({ data }));
  }

  /** Zero or more chunks for one canonical part; the first chunk carries the role. */
  encode(part: TextStreamPart): object[] {
    const out: object[] = [];
    if (!this.started) {
      this.started = true;
      out.push(this.chunk({ role: 'assistant', content: '' }));
    }
    switch (part.type) {
      case 'text-delta':
        if (part.delta) out.push(this.chunk({ content: part.delta }));
        break;
      case 'reasoning-delta':
        if (part.delta) out.push(this.chunk({ reasoning_content: part.delta }));
        break;
      case 'tool-call-start':
        out.push(
          this.chunk({ tool_calls: [{ index: part.index, id: part.id, type: 'function', function: { name: part.name, arguments: '' } }] }),
        );
        break;
      case 'tool-call-delta':
        out.push(this.chunk({ tool_calls: [{ index: part.index, function: { arguments: part.argumentsDelta } }] }));
        break;
      case 'finish':
        // the verdicts come on a chunk of their own, without choices, before the finish (as OpenAI streams them)
        if (part.moderation) out.push({ ...this.chunk({}), choices: [], moderation: encodeModeration(part.moderation) });
        out.push(this.chunk({}, FINISH_REASONS[part.finishReason]));
        if (this.includeUsage) {
          out.push({
            id: this.id,
            object: 'chat.completion.chunk',
            created: this.created,
            model: this.model,
            system_fingerprint: SYSTEM_FINGERPRINT,
            choices: [],
            usage: encodeUsage(part.usage),
          });
        }
        break;
    }
    return out;
  }
}
