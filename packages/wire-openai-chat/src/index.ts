export { openAiChatFormat } from './chat.format';
export { openAiChatRouter } from './chat.router';
