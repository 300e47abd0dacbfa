/**
 * Where chat-completions servers differ. Each quirk is data, set by the provider (OpenAI's defaults
 * or an openai-compatible provider's `options`), so no converter ever asks which server it talks to.
 */
export interface ChatDialect {
  /** field carrying the output limit: OpenAI now wants max_completion_tokens, most servers max_tokens */
  maxTokensField: 'max_tokens' | 'max_completion_tokens';
  /** sends `stream_options: {include_usage: true}` so the stream ends with usage */
  supportsStreamOptions: boolean;
  /** field carrying reasoning text on assistant messages (read: both are always read) */
  reasoningField: 'reasoning_content' | 'reasoning';
  /** sends earlier reasoning back on assistant messages (DeepSeek rejects it; some servers need it) */
  sendReasoningHistory: boolean;
  /** sends `reasoning_effort` */
  supportsReasoningEffort: boolean;
  /** sends `top_k` (vLLM, llama.cpp and Ollama accept it) */
  supportsTopK: boolean;
  /** accepts `image_url` content parts */
  supportsImages: boolean;
  /** role of the system prompt */
  systemRole: 'system' | 'developer';
  /** runs the in-band `moderation` of OpenAI's 2.3.0 spec itself (OpenAI); else the gateway runs it */
  inBandModeration?: boolean;
  /** merged into every request body, under the computed fields (e.g. OpenRouter `provider` preferences) */
  extraBody?: Record<string, unknown>;
}

/** The dialect of chat-completions bodies (native-request.ts): a request written in it keeps its unread fields here. */
export const CHAT_FORMAT = 'openai-chat';

export const OPENAI_CHAT_DIALECT: ChatDialect = Object.freeze({
  maxTokensField: 'max_completion_tokens',
  supportsStreamOptions: true,
  reasoningField: 'reasoning_content',
  sendReasoningHistory: false,
  supportsReasoningEffort: true,
  supportsTopK: false,
  supportsImages: true,
  systemRole: 'system',
  inBandModeration: true,
});
