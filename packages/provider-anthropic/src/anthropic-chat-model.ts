import type { CallContext, TextModelPort, TextRequest, TextResult, TextStreamPart } from '@gateway/provider-kit';
import { forwardingFor, jsonEvents, tokenCount, type SseEvent, type UpstreamClient } from '@gateway/provider-kit';
import { anthropicMessageSchema, anthropicStreamEventSchema, anthropicTokenCountSchema } from './anthropic-api';
import { anthropicCall, type AnthropicCallOptions } from './anthropic-passthrough';
import { AnthropicStreamForwarder } from './anthropic-stream-forwarder';
import { ANTHROPIC_FORMAT } from './convert-to-anthropic-request';
import { mapAnthropicMessage } from './map-anthropic-response';
import { AnthropicStreamMapper } from './map-anthropic-stream';

/** SSE events of a Messages stream → canonical parts; the finish part comes with message_stop. */
export async function* readAnthropicStream(events: AsyncIterable<SseEvent>, mapper: AnthropicStreamMapper): AsyncGenerator<TextStreamPart> {
  for await (const { event, data } of jsonEvents(events, anthropicStreamEventSchema, 'a stream event')) {
    // The SSE event name is authoritative; data.type repeats it.
    yield* mapper.push({ ...data, type: event !== 'message' ? event : data.type });
  }
  mapper.end();
}

const COUNT_FIELDS = new Set(['model', 'messages', 'system', 'tools', 'tool_choice', 'thinking']);

/** A TextModelPort over `POST {baseUrl}/v1/messages`. */
export class AnthropicChatModel implements TextModelPort {
  /** Anthropic's server tools (web_search_*, web_fetch_*, code_execution_*) run here, sent in the client's own body */
  readonly hostedToolFormats = ['anthropic-messages'];

  constructor(
    private readonly transport: UpstreamClient,
    private readonly options: AnthropicCallOptions,
  ) {}

  async generate(req: TextRequest, ctx: CallContext): Promise<TextResult> {
    const { body, headers, warnings } = anthropicCall(req, this.options, false);
    const res = await this.transport.request({ method: 'POST', path: '/v1/messages', json: body, signal: ctx.signal, headers });
    const result = mapAnthropicMessage(await res.json(anthropicMessageSchema, 'a message'), req.model, warnings);
    return res.requestId ? { ...result, upstreamRequestId: res.requestId } : result;
  }

  /** `POST /v1/messages/count_tokens` takes the fields of a create that bear on the input, and nothing else. */
  async countTokens(req: TextRequest, ctx: CallContext): Promise<number> {
    const { body, headers } = anthropicCall(req, this.options, false);
    const counted = Object.fromEntries(Object.entries(body).filter(([k]) => COUNT_FIELDS.has(k)));
    const res = await this.transport.request({
      method: 'POST',
      path: '/v1/messages/count_tokens',
      json: counted,
      signal: ctx.signal,
      headers,
    });
    return tokenCount((await res.json(anthropicTokenCountSchema, 'a token count')).input_tokens, 'input_tokens');
  }

  async *stream(req: TextRequest, ctx: CallContext): AsyncGenerator<TextStreamPart> {
    const { body, headers, warnings } = anthropicCall(req, this.options, true);
    const res = await this.transport.request({ method: 'POST', path: '/v1/messages', json: body, signal: ctx.signal, headers });
    const mapper = new AnthropicStreamMapper({ warnings, upstreamRequestId: res.requestId });
    // a Messages client's offer (core stream-forwarding.ts), taken when its request goes as it wrote it
    const forward = forwardingFor(req, ctx, ANTHROPIC_FORMAT);
    try {
      if (!forward) return yield* readAnthropicStream(res.events(), mapper);
      yield* new AnthropicStreamForwarder(forward, mapper).relay(res.body());
    } finally {
      res.close();
    }
  }
}
