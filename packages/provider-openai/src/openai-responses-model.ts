import {
  forwardingFor,
  nativeRequestFor,
  type CallContext,
  type TextModelPort,
  type TextRequest,
  type TextResult,
  type TextStreamPart,
} from '@gateway/provider-kit';
import { checkUpstream, mapUpstreamModeration, s, type UpstreamClient } from '@gateway/provider-kit';
import { convertToResponsesRequest } from './convert-to-responses-request';
import { mapOutputItem, mapResponsesFinish, mapResponsesUsage } from './map-responses-output';
import { readResponsesStream, ResponsesStreamMapper } from './map-responses-stream';
import { responseObjectSchema, RESPONSES_FORMAT } from './openai-responses-api';
import { ResponsesStreamForwarder } from './responses-stream-forwarder';

/**
 * OpenAI's Responses API (`POST {baseUrl}/responses`). A request that carries a Responses body of its own
 * (the client spoke this format) is passed through, and the upstream's answer or events come back beside the
 * canonical result; any other request is translated from the canonical model.
 */
export class OpenAiResponsesModel implements TextModelPort {
  /** OpenAI's hosted tools (web_search, file_search, ...) run here */
  readonly hostedToolFormats = [RESPONSES_FORMAT];
  /** OpenAI runs the in-band `moderation` itself */
  readonly moderatesInBand = true;

  constructor(private readonly transport: UpstreamClient) {}

  async generate(req: TextRequest, ctx: CallContext): Promise<TextResult> {
    const { body, warnings } = convertToResponsesRequest(req, false);
    const res = await this.transport.request({ method: 'POST', path: '/responses', json: body, signal: ctx.signal });
    const raw = await res.json(s.unknown(), 'a response');
    const r = checkUpstream(responseObjectSchema, raw, 'a response');
    const content = (r.output ?? []).flatMap(mapOutputItem);
    return {
      id: r.id,
      model: req.model,
      content,
      finishReason: mapResponsesFinish(
        r,
        content.some((c) => c.type === 'tool-call'),
      ),
      usage: mapResponsesUsage(r.usage),
      warnings,
      ...(r.moderation ? { moderation: mapUpstreamModeration(r.moderation) } : {}),
      ...(res.requestId ? { upstreamRequestId: res.requestId } : {}),
      ...(nativeRequestFor(req, RESPONSES_FORMAT) ? { native: { dialect: RESPONSES_FORMAT, body: raw as Record<string, unknown> } } : {}),
    };
  }

  async *stream(req: TextRequest, ctx: CallContext): AsyncGenerator<TextStreamPart> {
    const { body, warnings } = convertToResponsesRequest(req, true);
    const res = await this.transport.request({ method: 'POST', path: '/responses', json: body, signal: ctx.signal });
    const mapper = new ResponsesStreamMapper({ warnings, upstreamRequestId: res.requestId });
    // a Responses client's offer (core stream-forwarding.ts), taken when its request goes as it wrote it; without
    // one, a request written in this format still gets each event back as a native event
    const forward = forwardingFor(req, ctx, RESPONSES_FORMAT);
    try {
      if (forward) yield* new ResponsesStreamForwarder(mapper).relay(res.body());
      else yield* readResponsesStream(res.events(), mapper, nativeRequestFor(req, RESPONSES_FORMAT) !== undefined);
    } finally {
      res.close();
    }
  }
}
