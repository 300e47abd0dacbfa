import type { CallContext, TextModelPort, TextRequest, TextResult, TextStreamPart } from '@gateway/core';
import { parseSse, sseJson, type SseEvent } from '../sse-parser';
import { malformedUpstream } from '../upstream-errors';
import { checkUpstream } from '../upstream-schema';
import type { UpstreamClient } from '../upstream-client';
import { chatChunkSchema, chatCompletionSchema } from './chat-api';
import type { ChatDialect } from './chat-dialect';
import { chatStreamError } from './chat-error';
import { convertToChatRequest } from './convert-to-chat-request';
import { mapChatCompletion } from './map-chat-response';
import { ChatStreamMapper } from './map-chat-stream';

/** SSE events of a chat-completions stream → canonical parts, ending with the finish part. */
export async function* readChatStream(events: AsyncIterable<SseEvent>, mapper: ChatStreamMapper): AsyncGenerator<TextStreamPart> {
  for await (const ev of events) {
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
    try {
      yield* readChatStream(parseSse(res.body()), new ChatStreamMapper({ warnings, upstreamRequestId: res.requestId }));
    } finally {
      res.close();
    }
  }
}
