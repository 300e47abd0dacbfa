import { openAiErrorShape, type WireFormat } from '@gateway/http-kit';
import { cohereErrorShape } from './cohere-error';
import { rerankRoutes, type RerankRouterDeps } from './rerank.router';

/** Rerank: Cohere v2 at /v2/rerank (Cohere's errors), the Cohere-and-Jina superset at /v1/rerank (OpenAI's). */
export const rerankFormat: WireFormat<RerankRouterDeps> = {
  name: 'rerank',
  routes: rerankRoutes,
  errorShapes: [cohereErrorShape, openAiErrorShape],
  pathClaims: [{ path: '/v2/rerank', shape: 'cohere' }],
};
