import { openAiErrorShape, type WireFormat } from '@gateway/http-kit';
import { chatRoutes } from './chat.openapi';
import { openAiChatRouter, type ChatRouterDeps } from './chat.router';

/** OpenAI chat completions: everything the server needs to know about this format. */
export const openAiChatFormat: WireFormat<ChatRouterDeps> = {
  name: 'openai-chat',
  routers: (deps) => [openAiChatRouter(deps)],
  routeDocs: chatRoutes,
  errorShapes: [openAiErrorShape],
};
