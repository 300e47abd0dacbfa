export { openAiChatFormat } from './chat.format';
export { openAiChatRouter, type ChatRouterDeps } from './chat.router';
