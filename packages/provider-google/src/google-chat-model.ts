import type { CallContext, TextModelPort, TextRequest, TextResult, TextStreamPart } from '@gateway/provider-kit';
import { invalid } from '@gateway/provider-kit';
import { forwardingFor, jsonEvents, tokenCount, type SseEvent, type UpstreamClient } from '@gateway/provider-kit';
import { GOOGLE_FORMAT } from './convert-to-google-request';
import { googleResponseSchema, googleTokenCountSchema } from './google-api';
import type { GoogleRequestOptions } from './convert-to-google-request';
import { googleRequestBody } from './google-passthrough';
import { mapGoogleResponse } from './map-google-response';
import { GoogleStreamForwarder } from './google-stream-forwarder';
import { GoogleStreamMapper } from './map-google-stream';

/** `models/` is prepended unless the name already carries a collection, as the @google/genai SDK does. */
export function modelPath(model: string): string {
  if (!/^[A-Za-z0-9._\-/@]+$/.test(model) || model.includes('..'))
    throw invalid('invalid_upstream_model', 'The upstream model name is not valid for Gemini.', 'model');
  return model.startsWith('models/') || model.startsWith('tunedModels/') ? model : `models/${model}`;
}

/** SSE events of streamGenerateContent → canonical parts; EOF ends the stream. */
export async function* readGoogleStream(events: AsyncIterable<SseEvent>, mapper: GoogleStreamMapper): AsyncGenerator<TextStreamPart> {
  for await (const { data } of jsonEvents(events, googleResponseSchema, 'a stream chunk')) yield* mapper.push(data);
  yield* mapper.end();
}

/** A TextModelPort over generateContent / streamGenerateContent. */
export class GoogleChatModel implements TextModelPort {
  /** googleSearch, urlContext and codeExecution run here, sent in the client's own body */
  readonly hostedToolFormats = ['gemini-content'];

  constructor(
    private readonly transport: UpstreamClient,
    private readonly options: GoogleRequestOptions & { apiVersion: string },
  ) {}

  async generate(req: TextRequest, ctx: CallContext): Promise<TextResult> {
    const { body, warnings } = googleRequestBody(req, this.options);
    const path = `/${this.options.apiVersion}/${modelPath(req.model)}:generateContent`;
    const res = await this.transport.request({ method: 'POST', path, json: body, signal: ctx.signal });
    const result = mapGoogleResponse(await res.json(googleResponseSchema, 'a generateContent answer'), req.model, warnings);
    return res.requestId ? { ...result, upstreamRequestId: res.requestId } : result;
  }

  /**
   * `:countTokens` with the whole request as `generateContentRequest`, so system instruction and tools count too
   * (a bare `contents` would count the messages only). Generation settings do not bear on the input: left out.
   */
  async countTokens(req: TextRequest, ctx: CallContext): Promise<number> {
    const { body } = googleRequestBody(req, this.options);
    const { generationConfig: _settings, safetySettings: _safety, ...input } = body as Record<string, unknown>;
    const path = modelPath(req.model);
    const res = await this.transport.request({
      method: 'POST',
      path: `/${this.options.apiVersion}/${path}:countTokens`,
      json: { generateContentRequest: { model: path, ...input } },
      signal: ctx.signal,
    });
    // proto3 JSON leaves out a zero: no totalTokens means none.
    return tokenCount((await res.json(googleTokenCountSchema, 'a token count')).totalTokens ?? 0, 'totalTokens');
  }

  async *stream(req: TextRequest, ctx: CallContext): AsyncGenerator<TextStreamPart> {
    const { body, warnings } = googleRequestBody(req, this.options);
    const res = await this.transport.request({
      method: 'POST',
      path: `/${this.options.apiVersion}/${modelPath(req.model)}:streamGenerateContent`,
      json: body,
      signal: ctx.signal,
      query: { alt: 'sse' },
    });
    const mapper = new GoogleStreamMapper({ warnings, upstreamRequestId: res.requestId });
    // a Gemini client's offer (core stream-forwarding.ts), taken when its request goes as it wrote it
    const forward = forwardingFor(req, ctx, GOOGLE_FORMAT);
    try {
      if (!forward) return yield* readGoogleStream(res.events(), mapper);
      yield* new GoogleStreamForwarder(forward, mapper).relay(res.body());
    } finally {
      res.close();
    }
  }
}
