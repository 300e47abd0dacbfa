import { openAiErrorShape, type WireFormat } from '@gateway/http-kit';
import { responsesRoutes } from './responses.openapi';
import { openAiResponsesRouter, type ResponsesRouterDeps } from './responses.router';

export interface ResponsesFormatDeps extends Omit<ResponsesRouterDeps, 'store' | 'conversations'> {
  responseStore: ResponsesRouterDeps['store'];
  responsesConversation: ResponsesRouterDeps['conversations'];
}

/** OpenAI responses: stored conversations, compaction and token counts. */
export const openAiResponsesFormat: WireFormat<ResponsesFormatDeps> = {
  name: 'openai-responses',
  routers: ({ responseStore, responsesConversation, ...deps }) => [
    openAiResponsesRouter({ ...deps, store: responseStore, conversations: responsesConversation }),
  ],
  routeDocs: responsesRoutes,
  errorShapes: [openAiErrorShape],
};
