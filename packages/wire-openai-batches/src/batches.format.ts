import { openAiErrorShape, type WireFormat } from '@gateway/http-kit';
import { batchesRoutes, type BatchesRouterDeps } from './batches.router';

/** OpenAI batches: create, read, list and cancel an account's batches. */
export const openAiBatchesFormat: WireFormat<BatchesRouterDeps> = {
  name: 'openai-batches',
  routes: batchesRoutes,
  errorShapes: [openAiErrorShape],
};
