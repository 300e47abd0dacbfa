import type { Request, Response } from 'express';
import {
  invalid,
  newId,
  type GatewayError,
  type ImageGeneration,
  type ModelCatalogue,
  type StreamForwarding,
  type TextGeneration,
  type Warning,
} from '@gateway/core';
import {
  atGeminiVersions,
  countInputTokens,
  cacheCallMeta,
  jsonBody,
  jsonRequestBody,
  pumpStream,
  routeOf,
  sendJsonAnswer,
  sendWarnings,
  type KeyedContext,
} from '@gateway/http-kit';
import { googleErrorShape } from './generate-content.error';
import { generateImageContent } from './generate-content.image';
import { generateContentResponse, modelParam } from './generate-content.openapi';
import { decodeGenerateContent } from './generate-content.request.codec';
import {
  countTokensRequestSchema,
  generateContentRequestSchema,
  type CountTokensRequestBody,
  type GenerateContentRequestBody,
} from './generate-content.request.schema';
import { encodeGenerateContent } from './generate-content.response.codec';
import { GenerateContentChunkEncoder } from './generate-content.stream.codec';

const generateBody = jsonRequestBody<GenerateContentRequestBody>(generateContentRequestSchema);

/** Bare `data:` events only: the SDK drops any event that starts with an `event:` line, and there is no [DONE]. */
const googleEvents = {
  encode: (chunk: object) => [{ data: chunk }],
  renderError: (err: GatewayError) => [{ data: googleErrorShape.render(err).body }],
};

async function* once<T>(produce: () => Promise<T>): AsyncGenerator<T> {
  yield await produce();
}

export interface GenerateContentRouterDeps {
  text: TextGeneration;
  catalogue: ModelCatalogue;
  images: ImageGeneration;
}

/** `generateContent` and `streamGenerateContent`: one request body, answered whole or as chunks. */
async function generate(
  verb: 'generateContent' | 'streamGenerateContent',
  { deps, principal, requestId, signal, body }: KeyedContext<GenerateContentRouterDeps> & { body: GenerateContentRequestBody },
  req: Request,
  res: Response,
) {
  const modelId = String(req.params.model);
  const meta = {
    format: 'gemini-content',
    requestId,
    signal,
    // hosted tools the chosen upstream does not run (core/hosted-tools.ts), known before the first event
    onWarnings: (w: readonly Warning[]) => sendWarnings(res, w),
    ...cacheCallMeta(req, res),
  };
  const spec = deps.catalogue.get(modelId);
  if (spec?.kind === 'image' && deps.catalogue.keyAllows(principal, modelId)) {
    // Image models answer with inlineData parts; a stream carries the whole answer in one chunk.
    const answer = () =>
      generateImageContent(deps.images, principal, modelId, body, meta, { responseId: newId('', 12), modelVersion: modelId });
    if (verb === 'streamGenerateContent' && req.query.alt === 'sse') await pumpStream(res, { ...googleEvents, parts: () => once(answer) });
    else res.json(verb === 'streamGenerateContent' ? [await answer()] : await answer());
    return;
  }
  const model = deps.text.resolve(principal, modelId);
  const { request, includeThoughts } = decodeGenerateContent(body, model);
  const who = { responseId: newId('', 12), modelVersion: model.id };

  if (verb === 'generateContent') {
    const result = await deps.text.generate(principal, request, { ...meta, model });
    sendJsonAnswer(res, result, encodeGenerateContent(who, result, includeThoughts));
    return;
  }
  const encoder = new GenerateContentChunkEncoder(who, includeThoughts);
  const parts = (forward?: StreamForwarding) => deps.text.stream(principal, request, { ...meta, model, forward });
  if (req.query.alt !== 'sse') {
    // Without alt=sse Google answers with one JSON array of the chunks; it is sent whole once generation ends.
    const chunks: object[] = [];
    for await (const part of parts()) chunks.push(...encoder.encode(part));
    res.json(chunks);
    return;
  }
  // only an SSE stream is offered the upstream's own events: the JSON array above is made of canonical chunks
  await pumpStream(res, { ...googleEvents, parts: () => parts(encoder.forwarding()), encode: (part) => encoder.messages(part) });
}

const route = routeOf<GenerateContentRouterDeps>();
// The SDK sends x-goog-api-key; a bearer token works too, as on every other route.
const auth = { kind: 'api-key', role: 'member', alternativeHeaders: ['x-goog-api-key'] } as const;

/**
 * `/v1beta/models/{model}:{verb}` (a literal colon inside the segment: the model is everything before the verb),
 * served under `/v1` too. `:predictLongRunning` and `GET /v1beta/models` belong to other formats.
 */
export const generateContentRoutes = atGeminiVersions([
  route({
    method: 'post',
    path: '/v1beta/models/{model}:generateContent',
    summary: 'Generate content',
    format: 'gemini-content',
    auth,
    params: [modelParam],
    body: generateBody,
    response: { description: 'One `GenerateContentResponse`.', content: { 'application/json': generateContentResponse } },
    errors: 'google',
    parse: [jsonBody()],
    // Gemini's batch mode (batches.router.ts): each inlined request is sent here, the model in the path
    batch: { format: 'gemini', kind: 'text' },
    handle: (ctx, req, res) => generate('generateContent', ctx, req, res),
  }),
  route({
    method: 'post',
    path: '/v1beta/models/{model}:streamGenerateContent',
    summary: 'Generate content as a stream',
    description:
      'With `?alt=sse`: bare `data:` events, one `GenerateContentResponse` each. Without it: one JSON array of those chunks, sent when generation ends.',
    format: 'gemini-content',
    auth,
    params: [modelParam, { name: 'alt', in: 'query', description: '`sse` for server-sent events.', schema: { enum: ['sse'] } }],
    body: generateBody,
    response: {
      description: 'Chunks as server-sent events (`alt=sse`) or as one JSON array.',
      content: { 'text/event-stream': { type: 'string' }, 'application/json': { type: 'array', items: generateContentResponse } },
    },
    errors: 'google',
    parse: [jsonBody()],
    handle: (ctx, req, res) => generate('streamGenerateContent', ctx, req, res),
  }),
  route({
    method: 'post',
    path: '/v1beta/models/{model}:countTokens',
    summary: 'Count the input tokens of a request',
    description:
      "Either `contents` or a whole `generateContentRequest`. Counted by the model's upstream when it can count (Google, the simulator); otherwise estimated, and the `x-gateway-token-count: estimated` header says so.",
    format: 'gemini-content',
    auth,
    params: [modelParam],
    body: jsonRequestBody<CountTokensRequestBody>(countTokensRequestSchema),
    response: {
      description: 'The count.',
      content: {
        'application/json': { type: 'object', required: ['totalTokens'], properties: { totalTokens: { type: 'integer', minimum: 0 } } },
      },
    },
    errors: 'google',
    parse: [jsonBody()],
    async handle({ deps, principal, body }, req, res) {
      const modelId = String(req.params.model);
      if ((body.contents === undefined) === (body.generateContentRequest === undefined)) {
        throw invalid('invalid_count_request', 'Send either "contents" or "generateContentRequest" (one of the two).', 'contents');
      }
      // The path names the model; generateContentRequest.model (`models/…`) repeats it and must not travel upstream.
      const { model: _named, ...generate } = body.generateContentRequest ?? { contents: body.contents ?? [] };
      const { request } = decodeGenerateContent(generate, deps.text.resolve(principal, modelId));
      res.json({ totalTokens: await countInputTokens(res, deps.text, principal, request, 'gemini-content') });
    },
  }),
]);
