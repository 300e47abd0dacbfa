import { openAiErrorShape, type WireFormat } from '@gateway/http-kit';
import { embeddingsRoutes, type EmbeddingsRouterDeps } from './embeddings.router';

/** OpenAI embeddings. */
export const openAiEmbeddingsFormat: WireFormat<EmbeddingsRouterDeps> = {
  name: 'openai-embeddings',
  routes: embeddingsRoutes,
  errorShapes: [openAiErrorShape],
};
