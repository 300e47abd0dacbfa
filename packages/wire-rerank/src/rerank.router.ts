import { randomUUID } from 'node:crypto';
import type { Rerank } from '@gateway/core';
import { jsonBody, jsonRequestBody, requestCacheControl, routeOf, sendJsonAnswer, type KeyedContext } from '@gateway/http-kit';
import type { Request, Response } from 'express';
import { decodeRerankRequest } from './rerank.request.codec';
import {
  cohereRerankRequestSchema,
  rerankRequestSchema,
  type CohereRerankRequestBody,
  type RerankRequestBody,
} from './rerank.request.schema';
import { rerankResult } from './rerank.openapi';
import { encodeRerankResponse } from './rerank.response.codec';

export interface RerankRouterDeps {
  rerank: Rerank;
}

/** Either dialect: the model first (an unknown one answers as on chat), then the limits, then the routed call. */
const rerankIn =
  (format: string) =>
  async (
    { deps, principal, requestId, signal, body }: KeyedContext<RerankRouterDeps> & { body: RerankRequestBody },
    req: Pick<Request, 'headers'>,
    res: Response,
  ) => {
    const model = deps.rerank.resolve(principal, body.model);
    const { returnDocuments, sent, ...command } = decodeRerankRequest(body);
    const answer = await deps.rerank.rerank(principal, model, command, {
      format,
      requestId,
      signal,
      cacheControl: requestCacheControl(req),
    });
    sendJsonAnswer(res, answer, encodeRerankResponse(randomUUID(), body.model, answer, returnDocuments ? sent : undefined));
  };

const route = routeOf<RerankRouterDeps>();

export const rerankRoutes = [
  route({
    method: 'post',
    path: '/v2/rerank',
    summary: 'Rerank documents (Cohere v2)',
    description: "Cohere's v2 shape: `@ai-sdk/cohere` and the cohere SDK work with their base URL at the gateway. Errors are `{message}`.",
    format: 'cohere-rerank',
    auth: { kind: 'api-key', role: 'member' },
    body: jsonRequestBody<CohereRerankRequestBody>(cohereRerankRequestSchema),
    response: rerankResult,
    errors: 'cohere',
    parse: [jsonBody()],
    handle: rerankIn('cohere-rerank'),
  }),
  route({
    method: 'post',
    path: '/v1/rerank',
    summary: 'Rerank documents (Cohere and Jina fields)',
    description:
      "Cohere v2's fields plus Jina's `return_documents` (default false) and document objects (`{text}`, or any object read through `rank_fields`).",
    format: 'rerank',
    auth: { kind: 'api-key', role: 'member' },
    body: jsonRequestBody<RerankRequestBody>(rerankRequestSchema),
    response: rerankResult,
    errors: 'openai',
    parse: [jsonBody()],
    handle: rerankIn('rerank'),
  }),
];
