import { MODERATION_PARAM_SCHEMA } from '@gateway/http-kit';
import type { FromSchema } from 'json-schema-to-ts';

/**
 * The shape of a responses request. Item and tool kinds are checked by the codecs (clear messages for
 * what the gateway does not serve); ranges live here. Unknown top-level fields are kept for passthrough.
 */
const contentPart = {
  type: 'object',
  required: ['type'],
  properties: {
    type: { type: 'string' },
    text: { type: 'string' },
    refusal: { type: 'string' },
    image_url: { type: ['string', 'null'] },
    file_id: { type: ['string', 'null'] },
    detail: { type: 'string' },
  },
} as const;

/** A string, or an array of parts: `type: [string, array]` rather than anyOf, so errors name the part. */
const content = { type: ['string', 'array'], items: contentPart } as const;

/** Fields each typed input item needs (a `then` per type below, and the matching type for the codec). */
const itemRules = [
  ['function_call', ['call_id', 'name', 'arguments']],
  ['function_call_output', ['call_id', 'output']],
  ['compaction', ['encrypted_content']],
] as const;
const itemIfs = itemRules.map(([type, required]) => ({
  if: { required: ['type'], properties: { type: { const: type } } },
  then: { required },
}));

const inputItem = {
  type: 'object',
  properties: {
    type: { type: 'string' },
    id: { type: ['string', 'null'] },
    role: { enum: ['user', 'assistant', 'system', 'developer'] },
    content: { type: ['string', 'array'], items: { type: 'object' } },
    status: { type: ['string', 'null'] },
    call_id: { type: 'string', minLength: 1 },
    name: { type: 'string' },
    arguments: { type: 'string' },
    output: content,
    summary: { type: 'array', items: { type: 'object', properties: { text: { type: 'string' } } } },
    encrypted_content: { type: ['string', 'null'] },
  },
  allOf: [
    // A message item may omit `type`.
    { if: { properties: { type: { const: 'message' } } }, then: { required: ['role', 'content'], properties: { content } } },
    ...itemIfs,
    {
      if: { required: ['type'], properties: { type: { const: 'compaction' } } },
      then: { properties: { encrypted_content: { type: 'string' } } },
    },
  ],
} as const;

export const inputSchema = { type: ['string', 'array'], items: inputItem } as const;

const tool = {
  type: 'object',
  required: ['type'],
  properties: {
    type: { type: 'string' },
    name: { type: 'string', pattern: '^[a-zA-Z0-9_-]{1,64}$' },
    description: { type: ['string', 'null'] },
    parameters: { type: ['object', 'null'] },
    strict: { type: ['boolean', 'null'] },
  },
  if: { properties: { type: { const: 'function' } } },
  then: { required: ['name'] },
} as const;

/**
 * Fields of OpenAI's request the gateway does not read: ajv checks their type, then they travel as sent to an upstream
 * speaking this format; another upstream drops them with an `x-gateway-warnings` entry. Listed here so /openapi.json
 * documents every field the route accepts (test/openapi-request-fields.test.ts).
 */
const FORWARDED = 'Forwarded as sent to an OpenAI-shaped upstream; dropped, with a warning, for any other upstream.';
/** Resources of the upstream account (docs/security.md): refused unless the provider entry allows them. */
const ACCOUNT_RESOURCE =
  'Names a resource of the upstream account: refused (400 `upstream_account_resource`) unless the model\'s provider entry sets `accountResources: "allow"` (`drop` removes it); then forwarded as sent to an OpenAI-shaped upstream.';
const forwarded = {
  conversation: { type: ['string', 'object', 'null'], description: ACCOUNT_RESOURCE },
  context_management: { type: ['array', 'null'], items: { type: 'object' }, description: FORWARDED },
  max_tool_calls: { type: ['integer', 'null'], description: FORWARDED },
  prompt: { type: ['object', 'null'], description: ACCOUNT_RESOURCE },
  prompt_cache_key: { type: ['string', 'null'], description: FORWARDED },
  prompt_cache_options: { type: ['object', 'null'], description: FORWARDED },
  prompt_cache_retention: { type: ['string', 'null'], description: FORWARDED },
  safety_identifier: { type: ['string', 'null'], maxLength: 64, description: FORWARDED },
  service_tier: { type: ['string', 'null'], description: FORWARDED },
} as const;

export const responsesRequestSchema = {
  type: 'object',
  required: ['model'],
  properties: {
    model: { type: 'string', minLength: 1 },
    input: inputSchema,
    instructions: { type: ['string', 'null'] },
    max_output_tokens: { type: ['integer', 'null'], minimum: 1 },
    temperature: { type: ['number', 'null'], minimum: 0, maximum: 2 },
    top_p: { type: ['number', 'null'], minimum: 0, maximum: 1 },
    stream: { type: ['boolean', 'null'] },
    stream_options: { type: ['object', 'null'] },
    tools: { type: ['array', 'null'], items: tool },
    tool_choice: {
      anyOf: [
        { enum: ['auto', 'none', 'required', 'disabled'] },
        { type: 'object', required: ['type'], properties: { type: { type: 'string' }, name: { type: 'string' } } },
      ],
    },
    parallel_tool_calls: { type: ['boolean', 'null'] },
    reasoning: {
      type: ['object', 'null'],
      properties: {
        effort: { type: ['string', 'null'] },
        summary: { enum: ['auto', 'concise', 'detailed', null] },
        generate_summary: { enum: ['auto', 'concise', 'detailed', null] },
      },
    },
    previous_response_id: { type: ['string', 'null'], minLength: 1 },
    store: { type: ['boolean', 'null'] },
    background: { type: ['boolean', 'null'] },
    metadata: {
      type: ['object', 'null'],
      maxProperties: 16,
      propertyNames: { maxLength: 64 },
      additionalProperties: { type: 'string', maxLength: 512 },
    },
    text: {
      type: ['object', 'null'],
      properties: {
        format: {
          type: 'object',
          required: ['type'],
          properties: {
            type: { enum: ['text', 'json_object', 'json_schema'] },
            name: { type: 'string' },
            schema: { type: 'object' },
            strict: { type: ['boolean', 'null'] },
          },
          if: { properties: { type: { const: 'json_schema' } } },
          then: { required: ['name', 'schema'] },
        },
        verbosity: { enum: ['low', 'medium', 'high', null] },
      },
    },
    truncation: { enum: ['auto', 'disabled', null] },
    include: { type: ['array', 'null'], items: { type: 'string' } },
    top_logprobs: { type: ['integer', 'null'], minimum: 0, maximum: 20 },
    user: { type: 'string' },
    moderation: MODERATION_PARAM_SCHEMA,
    ...forwarded,
  },
} as const;

const COMPACT_IGNORED = 'Accepted and ignored: the gateway compacts the history itself.';

const { model, input, instructions, previous_response_id } = responsesRequestSchema.properties;

/** `POST /v1/responses/compact`: the conversation fields of a create. */
export const compactRequestSchema = {
  type: 'object',
  required: ['model'],
  properties: {
    model,
    input,
    instructions,
    previous_response_id,
    // OpenAI's cache and tier options: accepted and ignored, the gateway compacts the history itself
    prompt_cache_key: { type: ['string', 'null'], description: COMPACT_IGNORED },
    prompt_cache_options: { type: ['object', 'null'], description: COMPACT_IGNORED },
    prompt_cache_retention: { type: ['string', 'null'], description: COMPACT_IGNORED },
    service_tier: { type: ['string', 'null'], description: COMPACT_IGNORED },
  },
} as const;

/** `POST /v1/responses/input_tokens`: a create body, plus the `personality` OpenAI's count takes. */
export const inputTokensRequestSchema = {
  ...responsesRequestSchema,
  properties: {
    ...responsesRequestSchema.properties,
    personality: { type: ['string', 'null'], description: FORWARDED },
  },
} as const;

/** A responses body as the schema admits it (per-item if/then rules are checked by ajv, not narrowed here). */
export type ResponsesRequestBody = FromSchema<typeof responsesRequestSchema>;
export type CompactRequestBody = FromSchema<typeof compactRequestSchema>;
export type ResponsesInput = FromSchema<typeof inputSchema>;
export type ResponsesInputItem = Exclude<ResponsesInput, string>[number];
type ItemRule = (typeof itemRules)[number];
/** An input item of one type with the fields `itemRules` makes it require, null excluded. */
export type ItemOfType<T extends ItemRule[0]> = ResponsesInputItem & { type: T } & {
  [K in Extract<ItemRule, readonly [T, unknown]>[1][number]]-?: NonNullable<ResponsesInputItem[K]>;
};

/** Narrows a schema-checked input item by its type (ajv already enforced that type's required fields). */
export function isItem<T extends ItemRule[0]>(item: ResponsesInputItem, type: T): item is ItemOfType<T> {
  return item.type === type;
}

/** A message item's content part (the message rule applies this shape to its parts). */
export type ResponsesContentPart = FromSchema<typeof contentPart>;
