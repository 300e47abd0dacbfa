import type { FinishReason, ModerationReport, TextStreamPart, Usage, Warning } from '@gateway/core';
import { mapUpstreamModeration } from '../in-band-moderation';
import { truncatedStream } from '../upstream-errors';
import type { ChatChunk } from './chat-api';
import { chatReasoning, chatText } from './map-chat-response';
import { mapChatFinishReason, mapChatUsage } from './map-chat-finish-reason';

/**
 * `chat.completion.chunk`s → canonical parts, in order. The finish part waits for the end of the
 * stream because the usage chunk (stream_options.include_usage) comes after the finish_reason one.
 */
export class ChatStreamMapper {
  private finishReason: FinishReason | undefined;
  private usage: Usage | undefined;
  private moderation: ModerationReport | undefined;
  private sawToolCall = false;
  private done = false;
  /** upstream tool_calls[].index → canonical tool-call ordinal */
  private readonly calls = new Map<number, number>();

  constructor(private readonly extra: { warnings: Warning[]; upstreamRequestId?: string }) {}

  push(chunk: ChatChunk): TextStreamPart[] {
    if (this.done) return [];
    const out: TextStreamPart[] = [];
    if (chunk.usage) this.usage = mapChatUsage(chunk.usage);
    if (chunk.moderation) this.moderation = mapUpstreamModeration(chunk.moderation);
    const choice = chunk.choices?.[0];
    if (!choice) return out;
    const d = choice.delta ?? {};
    const reasoning = chatReasoning(d);
    if (reasoning) out.push({ type: 'reasoning-delta', delta: reasoning });
    const text = chatText(d.content);
    if (text) out.push({ type: 'text-delta', delta: text });
    if (d.refusal) out.push({ type: 'text-delta', delta: d.refusal });
    (d.tool_calls ?? []).forEach((c, position) => {
      const upstreamIndex = c.index ?? position;
      let ordinal = this.calls.get(upstreamIndex);
      if (ordinal === undefined) {
        ordinal = this.calls.size;
        this.calls.set(upstreamIndex, ordinal);
        this.sawToolCall = true;
        out.push({ type: 'tool-call-start', index: ordinal, id: c.id ?? `call_${ordinal}`, name: c.function?.name ?? '' });
      }
      if (c.function?.arguments) out.push({ type: 'tool-call-delta', index: ordinal, argumentsDelta: c.function.arguments });
    });
    if (choice.finish_reason) this.finishReason = d.refusal ? 'content-filter' : mapChatFinishReason(choice.finish_reason);
    return out;
  }

  /** The usual text event (usual-text-event.ts): what push() makes of a chunk whose one choice carries only this text. */
  text(text: string): TextStreamPart[] {
    return this.done || !text ? [] : [{ type: 'text-delta', delta: text }];
  }

  /** `data: [DONE]`. */
  markDone(): void {
    this.done = true;
  }

  /** End of stream: the finish part, or an error if the upstream stopped before saying it was done. */
  end(): TextStreamPart[] {
    if (!this.finishReason) throw truncatedStream('its finish_reason');
    let finishReason = this.finishReason;
    if (finishReason === 'stop' && this.sawToolCall) finishReason = 'tool-calls';
    return [
      {
        type: 'finish',
        finishReason,
        usage: this.usage ?? { inputTokens: 0, outputTokens: 0, totalTokens: 0 },
        warnings: this.extra.warnings,
        ...(this.extra.upstreamRequestId ? { upstreamRequestId: this.extra.upstreamRequestId } : {}),
        ...(this.moderation ? { moderation: this.moderation } : {}),
      },
    ];
  }
}
