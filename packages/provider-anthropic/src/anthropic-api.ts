import { s, type Infer } from '@gateway/provider-kit';

/** The Messages API answers the gateway reads, as minimal schemas: every field may be missing, none mistyped. */
export const ANTHROPIC_DEFAULT_BASE_URL = 'https://api.anthropic.com';
export const ANTHROPIC_VERSION = '2023-06-01';
export const ANTHROPIC_REQUEST_ID_HEADERS = ['request-id', 'x-request-id'];

const anthropicContentBlock = s.object({
  type: s.string(),
  text: s.string(),
  id: s.string(),
  name: s.string(),
  /** a tool call's arguments: free-form JSON */
  input: s.unknown(),
  thinking: s.string(),
  signature: s.string(),
  data: s.string(),
});

const anthropicUsage = s.object({
  input_tokens: s.number(),
  output_tokens: s.number(),
  cache_creation_input_tokens: s.number(),
  cache_read_input_tokens: s.number(),
});

export const anthropicMessageSchema = s.object({
  id: s.string(),
  type: s.string(),
  role: s.string(),
  model: s.string(),
  content: s.array(anthropicContentBlock),
  stop_reason: s.string(),
  stop_sequence: s.string(),
  usage: anthropicUsage,
});

const anthropicErrorObject = s.object({ type: s.string(), message: s.string() });

/** The data of one stream event; its `type` repeats the SSE `event:` name. */
export const anthropicStreamEventSchema = s.object({
  type: s.string(),
  message: anthropicMessageSchema,
  index: s.number(),
  content_block: anthropicContentBlock,
  delta: s.object({
    type: s.string(),
    text: s.string(),
    partial_json: s.string(),
    thinking: s.string(),
    signature: s.string(),
    stop_reason: s.string(),
    stop_sequence: s.string(),
  }),
  usage: anthropicUsage,
  error: anthropicErrorObject,
});

/** `POST /v1/messages/count_tokens` */
export const anthropicTokenCountSchema = s.object({ input_tokens: s.unknown() });

export type AnthropicContentBlock = Infer<typeof anthropicContentBlock>;
export type AnthropicUsage = Infer<typeof anthropicUsage>;
export type AnthropicMessage = Infer<typeof anthropicMessageSchema>;
export type AnthropicErrorObject = Infer<typeof anthropicErrorObject>;
export type AnthropicStreamEvent = Infer<typeof anthropicStreamEventSchema>;

export interface AnthropicErrorBody {
  type?: string;
  error?: { type?: string; message?: string };
  request_id?: string;
}

/** What the gateway sends. */
export type AnthropicRequestBlock =
  | { type: 'text'; text: string }
  | { type: 'image'; source: { type: 'base64'; media_type: string; data: string } | { type: 'url'; url: string } }
  | { type: 'tool_use'; id: string; name: string; input: Record<string, unknown> }
  | {
      type: 'tool_result';
      tool_use_id: string;
      content: Array<Extract<AnthropicRequestBlock, { type: 'text' | 'image' }>>;
      is_error?: boolean;
    }
  | { type: 'thinking'; thinking: string; signature: string };

export interface AnthropicRequestMessage {
  role: 'user' | 'assistant';
  content: AnthropicRequestBlock[];
}
