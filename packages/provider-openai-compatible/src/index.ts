export * from './openai-compatible-options';
export * from './openai-compatible-chat-model';
export * from './openai-compatible-provider';
