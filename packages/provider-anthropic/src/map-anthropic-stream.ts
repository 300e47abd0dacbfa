import { type FinishReason, type TextStreamPart, droppedContent, type Warning } from '@gateway/provider-kit';
import { truncatedStream } from '@gateway/provider-kit';
import type { AnthropicStreamEvent, AnthropicUsage } from './anthropic-api';
import { anthropicStreamError } from './anthropic-error';
import { mapAnthropicStopReason, mapAnthropicUsage } from './map-anthropic-stop-reason';

/**
 * Messages stream events → canonical parts. Usage arrives in two halves (message_start, then
 * cumulative counts in message_delta); the finish part is emitted at message_stop, the end marker.
 * message_start's input counts become an `input-usage` part, held back until the first other part so that
 * a failure right after message_start still fails over (the use case commits to a deployment on its first part).
 */
export class AnthropicStreamMapper {
  private usage: AnthropicUsage = {};
  private finishReason: FinishReason = 'other';
  private stopSequence: string | undefined;
  private stopped = false;
  /** content block index → canonical tool-call ordinal */
  private readonly tools = new Map<number, number>();
  private readonly warnings: Warning[];
  private inputUsage: TextStreamPart | undefined;

  constructor(private readonly extra: { warnings: Warning[]; upstreamRequestId?: string }) {
    this.warnings = [...extra.warnings];
  }

  push(ev: AnthropicStreamEvent): TextStreamPart[] {
    const parts = this.map(ev);
    if (!parts.length || !this.inputUsage) return parts;
    const held = this.inputUsage;
    this.inputUsage = undefined;
    return [held, ...parts];
  }

  private map(ev: AnthropicStreamEvent): TextStreamPart[] {
    if (this.stopped) return [];
    switch (ev.type) {
      case 'message_start': {
        this.mergeUsage(ev.message?.usage);
        const { inputTokens, cachedInputTokens, cacheCreationInputTokens } = mapAnthropicUsage(this.usage);
        const write = cacheCreationInputTokens ? { cacheCreationInputTokens } : {};
        if (ev.message?.usage?.input_tokens !== undefined)
          this.inputUsage = { type: 'input-usage', usage: { inputTokens, cachedInputTokens, ...write } };
        return [];
      }
      case 'content_block_start':
        return this.blockStart(ev);
      case 'content_block_delta':
        return this.blockDelta(ev);
      case 'message_delta':
        if (ev.delta?.stop_reason) this.finishReason = mapAnthropicStopReason(ev.delta.stop_reason);
        if (ev.delta?.stop_sequence) this.stopSequence = ev.delta.stop_sequence;
        this.mergeUsage(ev.usage);
        return [];
      case 'message_stop':
        this.stopped = true;
        return [
          {
            type: 'finish',
            finishReason: this.finishReason,
            usage: mapAnthropicUsage(this.usage),
            ...(this.stopSequence ? { stopSequence: this.stopSequence } : {}),
            warnings: this.warnings,
            ...(this.extra.upstreamRequestId ? { upstreamRequestId: this.extra.upstreamRequestId } : {}),
          },
        ];
      case 'error':
        throw anthropicStreamError(ev.error);
      default:
        return []; // ping, content_block_stop, and event types added later
    }
  }

  /** EOF: fine after message_stop, a truncation before it. */
  end(): void {
    if (!this.stopped) throw truncatedStream('message_stop');
  }

  /** message_delta counts are cumulative totals: overwrite, never add. */
  private mergeUsage(u: AnthropicUsage | undefined): void {
    for (const [k, v] of Object.entries(u ?? {})) {
      if (typeof v === 'number') (this.usage as Record<string, number>)[k] = v;
    }
  }

  private blockStart(ev: AnthropicStreamEvent): TextStreamPart[] {
    const b = ev.content_block ?? {};
    if (b.type === 'text') return b.text ? [{ type: 'text-delta', delta: b.text }] : [];
    if (b.type === 'thinking') return b.thinking ? [{ type: 'reasoning-delta', delta: b.thinking }] : [];
    if (b.type === 'tool_use') {
      const ordinal = this.tools.size;
      this.tools.set(ev.index ?? ordinal, ordinal);
      const out: TextStreamPart[] = [{ type: 'tool-call-start', index: ordinal, id: b.id ?? '', name: b.name ?? '' }];
      const input = b.input && typeof b.input === 'object' && Object.keys(b.input).length ? JSON.stringify(b.input) : '';
      if (input) out.push({ type: 'tool-call-delta', index: ordinal, argumentsDelta: input });
      return out;
    }
    this.warnings.push(droppedContent(`content.${b.type ?? 'unknown'}`, 'block type has no canonical form; dropped'));
    return [];
  }

  private blockDelta(ev: AnthropicStreamEvent): TextStreamPart[] {
    const d = ev.delta ?? {};
    switch (d.type) {
      case 'text_delta':
        return d.text ? [{ type: 'text-delta', delta: d.text }] : [];
      case 'thinking_delta':
        return d.thinking ? [{ type: 'reasoning-delta', delta: d.thinking }] : [];
      case 'signature_delta':
        return d.signature ? [{ type: 'reasoning-delta', delta: '', signature: d.signature }] : [];
      case 'input_json_delta': {
        const ordinal = this.tools.get(ev.index ?? -1);
        return ordinal !== undefined && d.partial_json ? [{ type: 'tool-call-delta', index: ordinal, argumentsDelta: d.partial_json }] : [];
      }
      default:
        return []; // citations_delta and future kinds
    }
  }
}
