import type { EmbeddingAnswer, Embeddings } from '@gateway/core';
import {
  atGeminiVersions,
  jsonBody,
  jsonRequestBody,
  requestCacheControl,
  routeOf,
  sendJsonAnswer,
  type KeyedContext,
} from '@gateway/http-kit';
import type { Request } from 'express';
import { decodeEmbedRequests } from './embed-content.codec';
import {
  batchEmbedContentsRequestSchema,
  embedContentRequestSchema,
  type BatchEmbedContentsRequestBody,
  type EmbedContentRequestBody,
} from './embed-content.request.schema';

export interface EmbedContentRouterDeps {
  embeddings: Embeddings;
}

const modelParam = {
  name: 'model',
  in: 'path',
  required: true,
  description: "An embedding model id in the key's group, without the `models/` prefix.",
  schema: { type: 'string' },
} as const;
const values = { type: 'object', required: ['values'], properties: { values: { type: 'array', items: { type: 'number' } } } } as const;

async function embed(
  { deps, principal, requestId, signal }: KeyedContext<EmbedContentRouterDeps>,
  modelId: string,
  requests: readonly EmbedContentRequestBody[],
  field: string,
  req: Pick<Request, 'headers'>,
): Promise<EmbeddingAnswer> {
  const model = deps.embeddings.resolve(principal, modelId);
  const command = { model, ...decodeEmbedRequests(requests, field) };
  const names = { input: field, dimensions: `${field === 'requests' ? 'requests[0].' : ''}outputDimensionality` };
  return await deps.embeddings.embed(
    principal,
    command,
    { format: 'gemini-embed', requestId, signal, cacheControl: requestCacheControl(req) },
    names,
  );
}

const route = routeOf<EmbedContentRouterDeps>();
const auth = { kind: 'api-key', role: 'member', alternativeHeaders: ['x-goog-api-key'] } as const;

/** Gemini embeddings under `/v1beta` and `/v1` (where the Gemini SDKs call). Vectors shortened by `outputDimensionality` are renormalised. */
export const embedContentRoutes = atGeminiVersions([
  route({
    method: 'post',
    path: '/v1beta/models/{model}:embedContent',
    summary: 'Embed one content',
    format: 'gemini-embed',
    auth,
    params: [modelParam],
    body: jsonRequestBody<EmbedContentRequestBody>(embedContentRequestSchema),
    response: {
      description: 'One embedding.',
      content: { 'application/json': { type: 'object', required: ['embedding'], properties: { embedding: values } } },
    },
    errors: 'google',
    parse: [jsonBody()],
    async handle(ctx, req, res) {
      const answer = await embed(ctx, String(req.params.model), [ctx.body], 'content', req);
      sendJsonAnswer(res, answer, { embedding: { values: answer.embeddings[0] } });
    },
  }),
  route({
    method: 'post',
    path: '/v1beta/models/{model}:batchEmbedContents',
    summary: 'Embed a batch of contents',
    description: 'One embedding per request, in order. `@google/genai` sends this even for one text.',
    format: 'gemini-embed',
    auth,
    params: [modelParam],
    body: jsonRequestBody<BatchEmbedContentsRequestBody>(batchEmbedContentsRequestSchema),
    response: {
      description: 'The embeddings, in request order.',
      content: {
        'application/json': { type: 'object', required: ['embeddings'], properties: { embeddings: { type: 'array', items: values } } },
      },
    },
    errors: 'google',
    parse: [jsonBody()],
    async handle(ctx, req, res) {
      const answer = await embed(ctx, String(req.params.model), ctx.body.requests, 'requests', req);
      sendJsonAnswer(res, answer, { embeddings: answer.embeddings.map((v) => ({ values: v })) });
    },
  }),
]);
