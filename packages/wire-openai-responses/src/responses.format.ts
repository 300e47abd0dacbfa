import { openAiErrorShape, type WireFormat } from '@gateway/http-kit';
import { responsesRoutes, type ResponsesRouterDeps } from './responses.router';

/** OpenAI responses: stored conversations, compaction and token counts. */
export const openAiResponsesFormat: WireFormat<ResponsesRouterDeps> = {
  name: 'openai-responses',
  routes: responsesRoutes,
  errorShapes: [openAiErrorShape],
};
