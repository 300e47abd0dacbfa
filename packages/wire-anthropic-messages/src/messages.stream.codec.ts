import type { StreamForwarding, TextStreamPart, Usage } from '@gateway/core';
import type { SseMessage } from '@gateway/http-kit';
import type { ThinkingDisplay } from './messages.request.codec';
import { mcpBlocks } from './messages.mcp';
import { encodeUsage, stopReasonOf } from './messages.response.codec';

/** One SSE message: the SDK drops any message without an `event:` name, so every one has it. */
export interface MessageEvent {
  event: string;
  data: Record<string, unknown>;
}

type InputUsage = Pick<Usage, 'inputTokens' | 'cachedInputTokens' | 'cacheCreationInputTokens'>;

type BlockKind = 'text' | 'thinking' | 'tool_use' | 'mcp';

/**
 * Canonical stream parts → Anthropic's event sequence: message_start, then per block content_block_start /
 * content_block_delta… / content_block_stop (one `ping` after the first start), message_delta with cumulative
 * usage, message_stop. Blocks never interleave: a part of another kind closes the open block.
 */
export class MessagesEventEncoder {
  private open: { kind: BlockKind; index: number } | undefined;
  private nextIndex = 0;
  private pinged = false;
  private started = false;
  /** the stream relays the upstream's events: the canonical parts beside them are not encoded */
  private forwarded = false;
  private readonly toolBlocks = new Map<number, number>();

  constructor(
    private readonly id: string,
    private readonly model: string,
    private readonly thinking: ThinkingDisplay,
    /** announced when the upstream gives no count of its own (an `input-usage` part) */
    private readonly estimatedInputTokens = 0,
  ) {}

  /**
   * message_start opens with the input count: the upstream's, from an `input-usage` first part, else the estimate
   * (clients such as LangChain read input tokens only here, so it must not say 0). The exact usage follows in
   * message_delta.
   */
  private start(part: TextStreamPart): MessageEvent {
    const input: InputUsage = part.type === 'input-usage' ? part.usage : { inputTokens: this.estimatedInputTokens };
    const { input_tokens, cache_creation_input_tokens, cache_read_input_tokens } = encodeUsage({
      ...input,
      outputTokens: 0,
      totalTokens: 0,
    });
    return {
      event: 'message_start',
      data: {
        type: 'message_start',
        message: {
          id: this.id,
          type: 'message',
          role: 'assistant',
          model: this.model,
          content: [],
          stop_reason: null,
          stop_sequence: null,
          usage: { input_tokens, output_tokens: 0, cache_creation_input_tokens, cache_read_input_tokens },
        },
      },
    };
  }

  /** The offer to take the upstream's own events (core stream-forwarding.ts): message_start's id and model, as start() writes them. */
  forwarding(): StreamForwarding {
    return { dialect: 'anthropic-messages', fields: { id: this.id, model: this.model } };
  }

  /**
   * The events for one part. Forwarded events (and upstream events handed over as native events) go as they are:
   * they already are this answer's events, from message_start to message_stop, so the parts that come with them
   * (the input usage, the finish) add nothing.
   */
  messages(part: TextStreamPart): SseMessage[] {
    if (part.type === 'forwarded-events') {
      this.forwarded = true;
      return part.text ? [{ raw: part.text }] : [];
    }
    if (part.type === 'native-event') {
      if (part.dialect !== 'anthropic-messages') return [];
      this.forwarded = true;
      return [{ event: part.event, data: part.data }];
    }
    if (this.forwarded) return [];
    return this.encode(part);
  }

  encode(part: TextStreamPart): MessageEvent[] {
    const out: MessageEvent[] = [];
    if (!this.started) {
      this.started = true;
      out.push(this.start(part));
    }
    switch (part.type) {
      case 'text-delta':
        if (!part.delta) break;
        this.ensure('text', out, () => ({ type: 'text', text: '' }));
        out.push(this.delta({ type: 'text_delta', text: part.delta }));
        break;
      case 'reasoning-delta':
        if (this.thinking === 'off') break;
        this.ensure('thinking', out, () => ({ type: 'thinking', thinking: '', signature: '' }));
        if (part.delta && this.thinking === 'summarized') out.push(this.delta({ type: 'thinking_delta', thinking: part.delta }));
        if (part.signature) out.push(this.delta({ type: 'signature_delta', signature: part.signature }));
        break;
      case 'tool-call-start':
        this.close(out);
        this.begin('tool_use', out, { type: 'tool_use', id: part.id, name: part.name, input: {} }, part.index);
        break;
      case 'tool-call-delta': {
        const index = this.toolBlocks.get(part.index);
        if (index !== undefined && part.argumentsDelta) {
          out.push({
            event: 'content_block_delta',
            data: { type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: part.argumentsDelta } },
          });
        }
        break;
      }
      case 'hosted-mcp':
        this.mcp(part.item, out);
        break;
      case 'finish':
        this.close(out);
        this.ping(out);
        out.push({
          event: 'message_delta',
          data: {
            type: 'message_delta',
            delta: { stop_reason: stopReasonOf(part.finishReason, part.stopSequence), stop_sequence: part.stopSequence ?? null },
            usage: encodeUsage(part.usage),
          },
        });
        out.push({ event: 'message_stop', data: { type: 'message_stop' } });
        break;
    }
    return out;
  }

  /** A gateway MCP call: its mcp_tool_use block (input streamed as tool_use's is), then its mcp_tool_result block. */
  private mcp(item: Extract<TextStreamPart, { type: 'hosted-mcp' }>['item'], out: MessageEvent[]): void {
    for (const block of mcpBlocks(item)) {
      this.close(out);
      if (block.type === 'mcp_tool_use') {
        this.begin('mcp', out, { ...block, input: {} });
        out.push(this.delta({ type: 'input_json_delta', partial_json: JSON.stringify(block.input) }));
      } else this.begin('mcp', out, block);
    }
    this.close(out);
  }

  private ensure(kind: BlockKind, out: MessageEvent[], block: () => object): void {
    if (this.open?.kind === kind) return;
    this.close(out);
    this.begin(kind, out, block());
  }

  private begin(kind: BlockKind, out: MessageEvent[], block: object, toolIndex?: number): void {
    const index = this.nextIndex++;
    this.open = { kind, index };
    if (toolIndex !== undefined) this.toolBlocks.set(toolIndex, index);
    out.push({ event: 'content_block_start', data: { type: 'content_block_start', index, content_block: block } });
    this.ping(out);
  }

  private delta(delta: object): MessageEvent {
    return { event: 'content_block_delta', data: { type: 'content_block_delta', index: this.open!.index, delta } };
  }

  private close(out: MessageEvent[]): void {
    if (!this.open) return;
    out.push({ event: 'content_block_stop', data: { type: 'content_block_stop', index: this.open.index } });
    this.open = undefined;
  }

  private ping(out: MessageEvent[]): void {
    if (this.pinged) return;
    this.pinged = true;
    out.push({ event: 'ping', data: { type: 'ping' } });
  }
}
