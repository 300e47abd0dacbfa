import type { TextStreamPart, Warning } from '@gateway/provider-kit';
import { jsonEvents, mapUpstreamModeration, truncatedStream, type SseEvent } from '@gateway/provider-kit';
import { responseEventSchema, RESPONSES_FORMAT, type ResponseEvent, type ResponsesOutputItem } from './openai-responses-api';
import { mapResponsesFinish, mapResponsesUsage, responseFailed } from './map-responses-output';

export interface StreamOptions {
  warnings: Warning[];
  upstreamRequestId?: string;
}

/** Responses stream events → canonical parts, ending with the finish part (from response.completed/incomplete). */
export class ResponsesStreamMapper {
  /** upstream item id → canonical tool-call ordinal */
  private readonly calls = new Map<string, number>();
  private finished = false;

  constructor(private readonly opts: StreamOptions) {}

  private startCall(item: ResponsesOutputItem, out: TextStreamPart[]): number {
    const index = this.calls.size;
    this.calls.set(item.id ?? `item_${index}`, index);
    out.push({ type: 'tool-call-start', index, id: item.call_id ?? item.id ?? '', name: item.name ?? '' });
    return index;
  }

  push(ev: ResponseEvent): TextStreamPart[] {
    const out: TextStreamPart[] = [];
    switch (ev.type) {
      case 'response.output_text.delta':
      case 'response.refusal.delta':
        if (ev.delta) out.push({ type: 'text-delta', delta: ev.delta });
        break;
      case 'response.reasoning_summary_text.delta':
      case 'response.reasoning_text.delta':
        if (ev.delta) out.push({ type: 'reasoning-delta', delta: ev.delta });
        break;
      case 'response.output_item.added':
        if (ev.item?.type === 'function_call') this.startCall(ev.item, out);
        break;
      case 'response.function_call_arguments.delta': {
        const index = this.calls.get(ev.item_id ?? '');
        if (index !== undefined && ev.delta) out.push({ type: 'tool-call-delta', index, argumentsDelta: ev.delta });
        break;
      }
      case 'response.output_item.done': {
        const item = ev.item;
        if (item?.type === 'reasoning' && item.encrypted_content)
          out.push({ type: 'reasoning-delta', delta: '', signature: item.encrypted_content });
        else if (item?.type === 'custom_tool_call' || (item?.type === 'function_call' && !this.calls.has(item.id ?? ''))) {
          // a custom tool's text arrives whole here; so does a call whose `added` event carried no id
          const index = this.startCall(item, out);
          const args = item.type === 'custom_tool_call' ? JSON.stringify({ input: item.input ?? '' }) : (item.arguments ?? '');
          if (args) out.push({ type: 'tool-call-delta', index, argumentsDelta: args });
        }
        break;
      }
      case 'response.completed':
      case 'response.incomplete': {
        const r = ev.response ?? {};
        this.finished = true;
        out.push({
          type: 'finish',
          finishReason: mapResponsesFinish(r, this.calls.size > 0),
          usage: mapResponsesUsage(r.usage),
          warnings: this.opts.warnings,
          ...(this.opts.upstreamRequestId ? { upstreamRequestId: this.opts.upstreamRequestId } : {}),
          ...(r.moderation ? { moderation: mapUpstreamModeration(r.moderation) } : {}),
        });
        break;
      }
      case 'response.failed':
        throw responseFailed(ev.response ?? {});
      case 'error':
        throw responseFailed({ error: ev.error ?? { code: ev.code, message: ev.message } });
    }
    return out;
  }

  end(): void {
    if (!this.finished) throw truncatedStream('response.completed');
  }
}

/** SSE events of a Responses stream → canonical parts (and, for a same-format request, each event as it came). */
export async function* readResponsesStream(
  events: AsyncIterable<SseEvent>,
  mapper: ResponsesStreamMapper,
  native: boolean,
): AsyncGenerator<TextStreamPart> {
  for await (const { event, data: ev, raw } of jsonEvents(events, responseEventSchema, 'a stream event')) {
    const parts = mapper.push(ev);
    if (native)
      yield {
        type: 'native-event',
        dialect: RESPONSES_FORMAT,
        event: event ?? ev.type ?? 'message',
        data: raw as Record<string, unknown>,
      };
    yield* parts;
  }
  mapper.end();
}
