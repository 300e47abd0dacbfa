import { upstreamModerationSchema } from '../in-band-moderation';
import { s, type Infer } from '../upstream-schema';

/**
 * The chat-completions answers the gateway reads from upstreams, as minimal schemas: every field may be
 * missing (OpenAI-compatible servers differ in what they fill in), but one that is present has its type.
 */
const chatToolCall = s.object({
  index: s.number(),
  id: s.string(),
  type: s.string(),
  function: s.object({ name: s.string(), arguments: s.string() }),
});

const chatMessage = s.object({
  role: s.string(),
  content: s.oneOf(s.string(), s.array(s.object({ type: s.string(), text: s.string() }))),
  refusal: s.string(),
  /** DeepSeek, vLLM (older), llama.cpp */
  reasoning_content: s.string(),
  /** OpenRouter, Ollama, vLLM (newer) */
  reasoning: s.string(),
  tool_calls: s.array(chatToolCall),
});

const chatUsage = s.object({
  prompt_tokens: s.number(),
  completion_tokens: s.number(),
  total_tokens: s.number(),
  prompt_tokens_details: s.object({ cached_tokens: s.number() }),
  completion_tokens_details: s.object({ reasoning_tokens: s.number() }),
  /** DeepSeek reports cache hits here */
  prompt_cache_hit_tokens: s.number(),
});

const chatErrorObject = s.object({ message: s.string(), type: s.string(), code: s.oneOf(s.string(), s.number()), param: s.string() });

export const chatCompletionSchema = s.object({
  id: s.string(),
  model: s.string(),
  choices: s.array(s.object({ index: s.number(), message: chatMessage, finish_reason: s.string() })),
  usage: chatUsage,
  moderation: upstreamModerationSchema,
});

export const chatChunkSchema = s.object({
  id: s.string(),
  model: s.string(),
  choices: s.array(s.object({ index: s.number(), delta: chatMessage, finish_reason: s.string() })),
  usage: chatUsage,
  moderation: upstreamModerationSchema,
  error: s.oneOf(chatErrorObject, s.string()),
});

export type ChatToolCall = Infer<typeof chatToolCall>;
export type ChatMessage = Infer<typeof chatMessage>;
export type ChatUsage = Infer<typeof chatUsage>;
export type ChatErrorObject = Infer<typeof chatErrorObject>;
export type ChatCompletion = Infer<typeof chatCompletionSchema>;
export type ChatChunk = Infer<typeof chatChunkSchema>;

/** Error bodies: OpenAI's `{error:{message,type,code}}`, Ollama's `{error:"..."}`, some servers' `{message}`. */
export interface ChatErrorBody {
  error?: ChatErrorObject | string | null;
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
