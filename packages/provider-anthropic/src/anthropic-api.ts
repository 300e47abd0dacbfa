/** The Messages API shapes the gateway reads. Every field may be missing. */
export const ANTHROPIC_DEFAULT_BASE_URL = 'https://api.anthropic.com';
export const ANTHROPIC_VERSION = '2023-06-01';
export const ANTHROPIC_REQUEST_ID_HEADERS = ['request-id', 'x-request-id'];

export interface AnthropicContentBlock {
  type?: string;
  text?: string;
  id?: string;
  name?: string;
  input?: unknown;
  thinking?: string;
  signature?: string;
  data?: string;
}

export interface AnthropicUsage {
  input_tokens?: number | null;
  output_tokens?: number | null;
  cache_creation_input_tokens?: number | null;
  cache_read_input_tokens?: number | null;
}

export interface AnthropicMessage {
  id?: string;
  type?: string;
  role?: string;
  model?: string;
  content?: AnthropicContentBlock[];
  stop_reason?: string | null;
  stop_sequence?: string | null;
  usage?: AnthropicUsage;
}

export interface AnthropicErrorObject {
  type?: string;
  message?: string;
}

/** The data of one stream event; its `type` repeats the SSE `event:` name. */
export interface AnthropicStreamEvent {
  type?: string;
  message?: AnthropicMessage;
  index?: number;
  content_block?: AnthropicContentBlock;
  delta?: {
    type?: string;
    text?: string;
    partial_json?: string;
    thinking?: string;
    signature?: string;
    stop_reason?: string | null;
    stop_sequence?: string | null;
  };
  usage?: AnthropicUsage;
  error?: AnthropicErrorObject;
}

export interface AnthropicErrorBody {
  type?: string;
  error?: AnthropicErrorObject;
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
