/**
 * The chat-completions wire shapes the gateway reads from upstreams. Every field may be missing:
 * OpenAI-compatible servers differ in what they fill in.
 */
export interface ChatToolCall {
  index?: number;
  id?: string;
  type?: string;
  function?: { name?: string; arguments?: string };
}

export interface ChatMessage {
  role?: string;
  content?: string | null | Array<{ type?: string; text?: string }>;
  refusal?: string | null;
  /** DeepSeek, vLLM (older), llama.cpp */
  reasoning_content?: string | null;
  /** OpenRouter, Ollama, vLLM (newer) */
  reasoning?: string | null;
  tool_calls?: ChatToolCall[] | null;
}

export interface ChatUsage {
  prompt_tokens?: number;
  completion_tokens?: number;
  total_tokens?: number;
  prompt_tokens_details?: { cached_tokens?: number } | null;
  completion_tokens_details?: { reasoning_tokens?: number } | null;
  /** DeepSeek reports cache hits here */
  prompt_cache_hit_tokens?: number;
}

export interface ChatErrorObject {
  message?: string;
  type?: string;
  code?: string | number | null;
  param?: string | null;
}

export interface ChatCompletion {
  id?: string;
  model?: string;
  choices?: Array<{ index?: number; message?: ChatMessage; finish_reason?: string | null }>;
  usage?: ChatUsage | null;
}

export interface ChatChunk {
  id?: string;
  model?: string;
  choices?: Array<{ index?: number; delta?: ChatMessage; finish_reason?: string | null }>;
  usage?: ChatUsage | null;
  error?: ChatErrorObject | string;
}

/** Error bodies: OpenAI's `{error:{message,type,code}}`, Ollama's `{error:"..."}`, some servers' `{message}`. */
export interface ChatErrorBody {
  error?: ChatErrorObject | string;
  message?: string;
  detail?: string;
}

/** What the gateway sends. */
export type ChatContentPart = { type: 'text'; text: string } | { type: 'image_url'; image_url: { url: string } };

export type ChatRequestMessage =
  | { role: 'system' | 'developer'; content: string }
  | { role: 'user'; content: string | ChatContentPart[]; name?: string }
  | {
      role: 'assistant';
      content: string | null;
      tool_calls?: Array<{ id: string; type: 'function'; function: { name: string; arguments: string } }>;
      reasoning_content?: string;
      reasoning?: string;
    }
  | { role: 'tool'; tool_call_id: string; content: string };
