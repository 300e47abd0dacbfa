export { openAiChatFormat } from './chat.format';
export { chatRoutes, type ChatRouterDeps } from './chat.router';
