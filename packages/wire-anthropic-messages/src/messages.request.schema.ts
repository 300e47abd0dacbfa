import type { FromSchema } from 'json-schema-to-ts';

/**
 * The shape of an Anthropic messages request, with the seed's ranges. Per-block requirements use if/then so
 * that the first error names the exact missing field. Unknown top-level fields are kept for passthrough.
 */
const cacheControl = {
  type: ['object', 'null'],
  required: ['type'],
  properties: { type: { const: 'ephemeral' }, ttl: { enum: ['5m', '1h'] } },
} as const;

const textBlock = {
  type: 'object',
  required: ['type', 'text'],
  properties: { type: { const: 'text' }, text: { type: 'string' }, cache_control: cacheControl, citations: { type: ['array', 'null'] } },
} as const;

const imageSource = {
  type: 'object',
  required: ['type'],
  properties: {
    type: { enum: ['base64', 'url', 'file'] },
    media_type: { enum: ['image/jpeg', 'image/png', 'image/gif', 'image/webp'] },
    data: { type: 'string' },
    url: { type: 'string' },
    file_id: { type: 'string' },
  },
  allOf: [
    { if: { properties: { type: { const: 'base64' } } }, then: { required: ['media_type', 'data'] } },
    { if: { properties: { type: { const: 'url' } } }, then: { required: ['url'] } },
  ],
} as const;

/** `then` per block type: which fields that type needs. Unknown types are refused by the codec with a clear message. */
const blockRules = [
  ['text', ['text']],
  ['image', ['source']],
  ['tool_use', ['id', 'name', 'input']],
  ['tool_result', ['tool_use_id']],
  ['thinking', ['thinking', 'signature']],
  ['redacted_thinking', ['data']],
  ['document', ['source']],
] as const;
const blockIfs = blockRules.map(([type, required]) => ({ if: { properties: { type: { const: type } } }, then: { required } }));

const contentBlock = {
  type: 'object',
  required: ['type'],
  properties: {
    type: { type: 'string' },
    text: { type: 'string' },
    source: { type: 'object' },
    id: { type: 'string' },
    name: { type: 'string' },
    input: { type: 'object' },
    tool_use_id: { type: 'string' },
    content: { type: ['string', 'array'], items: { type: 'object', required: ['type'], properties: { type: { type: 'string' } } } },
    is_error: { type: 'boolean' },
    thinking: { type: 'string' },
    signature: { type: 'string' },
    data: { type: 'string' },
    cache_control: cacheControl,
  },
  allOf: [...blockIfs, { if: { properties: { type: { const: 'image' } } }, then: { properties: { source: imageSource } } }],
} as const;

const jsonOutputFormat = {
  type: ['object', 'null'],
  required: ['type', 'schema'],
  properties: { type: { const: 'json_schema' }, schema: { type: 'object' } },
} as const;

export const messagesRequestSchema = {
  type: 'object',
  required: ['model', 'messages', 'max_tokens'],
  properties: {
    model: { type: 'string', minLength: 1 },
    messages: {
      type: 'array',
      minItems: 1,
      items: {
        type: 'object',
        required: ['role', 'content'],
        properties: {
          role: { enum: ['user', 'assistant', 'system'] },
          // `items` only applies to arrays, so a wrong block is reported at its own path (anyOf would blame `content`).
          content: { type: ['string', 'array'], items: contentBlock },
        },
      },
    },
    max_tokens: { type: 'integer', minimum: 1 },
    system: { type: ['string', 'array'], items: textBlock },
    cache_control: cacheControl,
    container: { type: ['string', 'object', 'null'] },
    context_management: { type: ['object', 'null'] },
    diagnostics: { type: ['object', 'null'] },
    inference_geo: { type: ['string', 'null'] },
    mcp_servers: { type: 'array', items: { type: 'object' } },
    metadata: { type: 'object', properties: { user_id: { type: ['string', 'null'], maxLength: 256 } } },
    output_config: {
      type: ['object', 'null'],
      properties: { effort: { enum: ['low', 'medium', 'high', 'xhigh', 'max', null] }, format: jsonOutputFormat },
    },
    output_format: jsonOutputFormat,
    service_tier: { enum: ['auto', 'standard_only'] },
    speed: { enum: ['standard', 'fast', null] },
    stop_sequences: { type: 'array', items: { type: 'string', minLength: 1 } },
    stream: { type: 'boolean' },
    temperature: { type: 'number', minimum: 0, maximum: 1 },
    top_p: { type: 'number', minimum: 0, maximum: 1 },
    top_k: { type: 'integer', minimum: 0 },
    thinking: {
      type: 'object',
      required: ['type'],
      properties: {
        type: { enum: ['enabled', 'disabled', 'adaptive', 'between_tools'] },
        budget_tokens: { type: 'integer', minimum: 1024 },
        display: { enum: ['summarized', 'omitted', null] },
      },
      allOf: [{ if: { properties: { type: { const: 'enabled' } } }, then: { required: ['budget_tokens'] } }],
    },
    // server-held threads (messages.thread.ts): resolved into a whole request before this schema is checked
    thread: {
      type: ['object', 'null'],
      required: ['type'],
      properties: { type: { enum: ['create', 'continue'] }, previous_message_id: { type: 'string' } },
    },
    tool_choice: {
      type: 'object',
      required: ['type'],
      properties: {
        type: { enum: ['auto', 'any', 'tool', 'none'] },
        name: { type: 'string' },
        disable_parallel_tool_use: { type: 'boolean' },
      },
      allOf: [{ if: { properties: { type: { const: 'tool' } } }, then: { required: ['name'] } }],
    },
    tools: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          name: { type: 'string', pattern: '^[a-zA-Z0-9_-]{1,128}$' },
          description: { type: 'string' },
          input_schema: { type: 'object', required: ['type'], properties: { type: { const: 'object' } } },
          type: { type: ['string', 'null'] },
          cache_control: cacheControl,
          strict: { type: 'boolean' },
          mcp_server_name: { type: 'string', minLength: 1 },
        },
        // an MCP toolset (mcp-client-2025-11-20) names its server instead of itself
        if: { required: ['type'], properties: { type: { const: 'mcp_toolset' } } },
        then: { required: ['mcp_server_name'] },
        else: { required: ['name'] },
      },
    },
  },
} as const;

/** `POST /v1/messages/count_tokens`: a create body without max_tokens (sampling fields are accepted and ignored). */
export const countTokensRequestSchema = { ...messagesRequestSchema, required: ['model', 'messages'] } as const;

/** A messages body as the schema admits it (per-block if/then rules are checked by ajv, not narrowed here). */
export type MessagesRequestBody = FromSchema<typeof messagesRequestSchema>;
/** A count_tokens body: a messages body whose max_tokens may be missing. */
export type CountTokensRequestBody = FromSchema<typeof countTokensRequestSchema>;
export type MessagesContentBlock = Exclude<MessagesRequestBody['messages'][number]['content'], string>[number];

type BlockRule = (typeof blockRules)[number];
/** A block of one type with the fields `blockRules` makes it require: the if/then rules, as a type. */
export type BlockOfType<T extends BlockRule[0]> = MessagesContentBlock & { type: T } & Required<
    Pick<MessagesContentBlock, Extract<BlockRule, readonly [T, unknown]>[1][number]>
  >;

/** Narrows a schema-checked block by its type (ajv already enforced that type's required fields). */
export function isBlock<T extends BlockRule[0]>(block: MessagesContentBlock, type: T): block is BlockOfType<T> {
  return block.type === type;
}
