import type { Embeddings } from '@gateway/core';
import { jsonBody, jsonRequestBody, requestCacheControl, routeOf, sendJsonAnswer } from '@gateway/http-kit';
import { encodeEmbeddings, inputsOf } from './embeddings.codec';
import { embeddingsRequestSchema, type EmbeddingsRequestBody } from './embeddings.request.schema';

export interface EmbeddingsRouterDeps {
  embeddings: Embeddings;
}

/**
 * The JSON values one embeddings body may hold: OpenAI's largest request (2,048 token arrays, 300,000 tokens in all)
 * and its few other fields; past the default bound of every other route.
 */
export const EMBEDDINGS_JSON_VALUES = 2048 + 300_000 + 64;

const vector = { type: 'array', items: { type: 'number' } } as const;
const embeddingsResponse = {
  type: 'object',
  required: ['object', 'data', 'model', 'usage'],
  properties: {
    object: { const: 'list' },
    data: {
      type: 'array',
      items: {
        type: 'object',
        required: ['object', 'index', 'embedding'],
        properties: {
          object: { const: 'embedding' },
          index: { type: 'integer' },
          embedding: { anyOf: [vector, { type: 'string', description: 'base64 of little-endian float32 values' }] },
        },
      },
    },
    model: { type: 'string' },
    usage: {
      type: 'object',
      required: ['prompt_tokens', 'total_tokens'],
      properties: { prompt_tokens: { type: 'integer' }, total_tokens: { type: 'integer' } },
    },
  },
} as const;

const route = routeOf<EmbeddingsRouterDeps>();

export const embeddingsRoutes = [
  route({
    method: 'post',
    path: '/v1/embeddings',
    batch: { format: 'openai', kind: 'embedding' },
    summary: 'Create embeddings',
    description:
      'One vector per input, in order. `encoding_format: "base64"` (what the `openai` SDK sends by default) answers little-endian float32 in base64 whatever the upstream returned; `dimensions` shortens each vector and renormalises it.',
    format: 'openai-embeddings',
    auth: { kind: 'api-key', role: 'member' },
    body: jsonRequestBody<EmbeddingsRequestBody>(embeddingsRequestSchema),
    response: { description: 'The embeddings.', content: { 'application/json': embeddingsResponse } },
    errors: 'openai',
    parse: [jsonBody(undefined, EMBEDDINGS_JSON_VALUES)],
    async handle({ deps, principal, requestId, signal, body }, req, res) {
      const model = deps.embeddings.resolve(principal, body.model);
      const answer = await deps.embeddings.embed(
        principal,
        { model, inputs: inputsOf(body.input), dimensions: body.dimensions ?? undefined, user: body.user ?? undefined },
        { format: 'openai-embeddings', requestId, signal, cacheControl: requestCacheControl(req) },
        { input: 'input', dimensions: 'dimensions' },
      );
      sendJsonAnswer(res, answer, encodeEmbeddings(answer, body.model, body.encoding_format ?? 'float'));
    },
  }),
];
