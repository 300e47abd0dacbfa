export { openAiChatFormat } from './chat.format';
