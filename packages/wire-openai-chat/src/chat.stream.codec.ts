import type { TextStreamPart } from '@gateway/core';
import { encodeModeration, encodeUsage, FINISH_REASONS, SYSTEM_FINGERPRINT } from './chat.response.codec';

/** Turns canonical stream parts into `chat.completion.chunk` objects, in order. */
export class ChatChunkEncoder {
  private started = false;

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
