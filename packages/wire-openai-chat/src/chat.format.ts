import { openAiErrorShape, type WireFormat } from '@gateway/http-kit';
import { chatRoutes, type ChatRouterDeps } from './chat.router';

/** OpenAI chat completions: everything the server needs to know about this format. */
export const openAiChatFormat: WireFormat<ChatRouterDeps> = {
  name: 'openai-chat',
  routes: chatRoutes,
  errorShapes: [openAiErrorShape],
};
