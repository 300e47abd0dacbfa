export { type ChatCompletion, chatCompletionSchema } from './chat-api';
export { type ChatDialect, OPENAI_CHAT_DIALECT } from './chat-dialect';
export { chatErrorDetails, describeChatFailure } from './chat-error';
export { ChatCompletionsModel, readChatStream } from './chat-completions-model';
export { convertToChatRequest } from './convert-to-chat-request';
export { mapChatCompletion } from './map-chat-response';
export { ChatStreamMapper } from './map-chat-stream';
