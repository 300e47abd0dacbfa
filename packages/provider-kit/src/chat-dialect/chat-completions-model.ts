import { forwardingFor, type CallContext, type TextModelPort, type TextRequest, type TextResult, type TextStreamPart } from '@gateway/core';
import { parseSse, sseJson, type SseEvent } from '../sse-parser';
import { malformedUpstream } from '../upstream-errors';
import { checkUpstream } from '../upstream-schema';
import type { UpstreamClient } from '../upstream-client';
import { chatChunkSchema, chatCompletionSchema } from './chat-api';
import { CHAT_FORMAT, type ChatDialect } from './chat-dialect';
import { ChatStreamForwarder } from './chat-stream-forwarder';
import { chatStreamError } from './chat-error';
import { convertToChatRequest } from './convert-to-chat-request';
import { mapChatCompletion } from './map-chat-response';
import { ChatStreamMapper } from './map-chat-stream';
import { usualTextEvent } from './usual-text-event';

/** SSE events of a chat-completions stream → canonical parts, ending with the finish part. */
export async function* readChatStream(events: AsyncIterable<SseEvent>, mapper: ChatStreamMapper): AsyncGenerator<TextStreamPart> {
  for await (const ev of events) {
    // the usual text event is read without parsing it whole (usual-text-event.ts); anything else as below
    const usual = usualTextEvent(ev.data);
    if (usual) {
      yield* mapper.text(usual.text);
      continue;
    }
    let data: unknown;
    try {
      data = sseJson(ev);
    } catch {
      throw malformedUpstream('a stream event that is not valid JSON');
    }
    if (data === undefined) {
      mapper.markDone();
      continue;
    }
    const chunk = checkUpstream(chatChunkSchema, data, 'a stream chunk');
    if (chunk.error) throw chatStreamError(chunk.error);
    yield* mapper.push(chunk);
  }
  yield* mapper.end();
}

/** A TextModelPort over `POST {baseUrl}/chat/completions`, shaped by a dialect. */
export class ChatCompletionsModel implements TextModelPort {
  readonly moderatesInBand: boolean;

  constructor(
    private readonly transport: UpstreamClient,
    private readonly dialect: ChatDialect,
    private readonly path = '/chat/completions',
  ) {
    this.moderatesInBand = dialect.inBandModeration === true;
  }

  async generate(req: TextRequest, ctx: CallContext): Promise<TextResult> {
    const { body, warnings } = convertToChatRequest(req, this.dialect, false);
    const res = await this.transport.request({ method: 'POST', path: this.path, json: body, signal: ctx.signal });
    const result = mapChatCompletion(await res.json(chatCompletionSchema, 'a chat completion'), req.model, warnings);
    return res.requestId ? { ...result, upstreamRequestId: res.requestId } : result;
  }

  async *stream(req: TextRequest, ctx: CallContext): AsyncGenerator<TextStreamPart> {
    const { body, warnings } = convertToChatRequest(req, this.dialect, true);
    const res = await this.transport.request({ method: 'POST', path: this.path, json: body, signal: ctx.signal });
    const mapper = new ChatStreamMapper({ warnings, upstreamRequestId: res.requestId });
    const forwarder = this.forwarder(req, ctx, mapper);
    try {
      if (!forwarder) return yield* readChatStream(parseSse(res.body()), mapper);
      yield* forwarder.relay(res.body());
    } finally {
      res.close();
    }
  }

  /**
   * Forwarding for a client of this dialect that offered it (core stream-forwarding.ts), unless the client asked
   * for usage this server cannot stream: the full path makes up that chunk.
   */
  private forwarder(req: TextRequest, ctx: CallContext, mapper: ChatStreamMapper): ChatStreamForwarder | undefined {
    const forward = forwardingFor(req, ctx, CHAT_FORMAT);
    if (!forward) return undefined;
    const options = req.native?.body.stream_options;
    const includeUsage = typeof options === 'object' && options !== null && (options as { include_usage?: unknown }).include_usage === true;
    if (includeUsage && !this.dialect.supportsStreamOptions) return undefined;
    return new ChatStreamForwarder(forward, includeUsage, mapper);
  }
}
