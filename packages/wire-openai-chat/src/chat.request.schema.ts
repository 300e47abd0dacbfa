import { MODERATION_PARAM_SCHEMA } from '@gateway/http-kit';
import type { FromSchema } from 'json-schema-to-ts';

/** The shape of a chat completions request; ranges are the seed's. Unknown fields are kept for passthrough. */
const content = {
  anyOf: [
    { type: 'string' },
    { type: 'null' },
    {
      type: 'array',
      items: {
        type: 'object',
        required: ['type'],
        properties: {
          type: { type: 'string' },
          text: { type: 'string' },
          image_url: {
            anyOf: [
              { type: 'string' },
              { type: 'object', required: ['url'], properties: { url: { type: 'string' }, detail: { type: 'string' } } },
            ],
          },
        },
      },
    },
  ],
} as const;

const toolCall = {
  type: 'object',
  required: ['id', 'function'],
  properties: {
    id: { type: 'string' },
    type: { const: 'function' },
    function: { type: 'object', required: ['name', 'arguments'], properties: { name: { type: 'string' }, arguments: { type: 'string' } } },
  },
} as const;

/**
 * Fields of OpenAI's request the gateway does not read: ajv checks their type, then they travel as sent to an upstream
 * speaking this format; another upstream drops them with an `x-gateway-warnings` entry. Listed here so /openapi.json
 * documents every field the route accepts (test/openapi-request-fields.test.ts).
 */
const FORWARDED = 'Forwarded as sent to an OpenAI-shaped upstream; dropped, with a warning, for any other upstream.';
const forwarded = {
  logprobs: { type: ['boolean', 'null'], description: FORWARDED },
  top_logprobs: { type: ['integer', 'null'], minimum: 0, maximum: 20, description: FORWARDED },
  parallel_tool_calls: { type: ['boolean', 'null'], description: FORWARDED },
  store: { type: ['boolean', 'null'], description: FORWARDED },
  metadata: { type: ['object', 'null'], additionalProperties: { type: 'string' }, description: FORWARDED },
  service_tier: { type: ['string', 'null'], description: FORWARDED },
  prediction: { type: ['object', 'null'], description: FORWARDED },
  prompt_cache_key: { type: ['string', 'null'], description: FORWARDED },
  prompt_cache_options: { type: ['object', 'null'], description: FORWARDED },
  prompt_cache_retention: { type: ['string', 'null'], description: FORWARDED },
  safety_identifier: { type: ['string', 'null'], maxLength: 64, description: FORWARDED },
  verbosity: { enum: ['low', 'medium', 'high', null], description: FORWARDED },
  web_search_options: { type: 'object', description: FORWARDED },
  functions: { type: 'array', items: { type: 'object' }, description: `Deprecated by OpenAI for \`tools\`. ${FORWARDED}` },
  function_call: { type: ['string', 'object'], description: `Deprecated by OpenAI for \`tool_choice\`. ${FORWARDED}` },
} as const;

export const chatRequestSchema = {
  type: 'object',
  required: ['model', 'messages'],
  properties: {
    model: { type: 'string', minLength: 1 },
    messages: {
      type: 'array',
      minItems: 1,
      items: {
        type: 'object',
        required: ['role'],
        properties: {
          role: { enum: ['system', 'developer', 'user', 'assistant', 'tool', 'function'] },
          content,
          name: { type: 'string' },
          tool_calls: { type: 'array', items: toolCall },
          tool_call_id: { type: 'string' },
          reasoning_content: { type: ['string', 'null'] },
        },
      },
    },
    temperature: { type: ['number', 'null'], minimum: 0, maximum: 2 },
    top_p: { type: ['number', 'null'], minimum: 0, maximum: 1 },
    n: { type: ['integer', 'null'], minimum: 1, maximum: 128 },
    stream: { type: ['boolean', 'null'] },
    stream_options: { type: ['object', 'null'], properties: { include_usage: { type: 'boolean' } } },
    stop: { anyOf: [{ type: 'string' }, { type: 'null' }, { type: 'array', maxItems: 4, items: { type: 'string' } }] },
    max_tokens: { type: ['integer', 'null'], minimum: 1 },
    max_completion_tokens: { type: ['integer', 'null'], minimum: 1 },
    presence_penalty: { type: ['number', 'null'], minimum: -2, maximum: 2 },
    frequency_penalty: { type: ['number', 'null'], minimum: -2, maximum: 2 },
    logit_bias: { type: ['object', 'null'], additionalProperties: { type: 'number', minimum: -100, maximum: 100 } },
    user: { type: 'string' },
    moderation: MODERATION_PARAM_SCHEMA,
    tools: {
      type: 'array',
      items: {
        type: 'object',
        required: ['type', 'function'],
        properties: {
          type: { const: 'function' },
          function: {
            type: 'object',
            required: ['name'],
            properties: {
              name: { type: 'string', pattern: '^[a-zA-Z0-9_-]{1,64}$' },
              description: { type: 'string' },
              parameters: { type: 'object' },
              strict: { type: ['boolean', 'null'] },
            },
          },
        },
      },
    },
    tool_choice: {
      anyOf: [
        { enum: ['none', 'auto', 'required'] },
        {
          type: 'object',
          required: ['type', 'function'],
          properties: {
            type: { const: 'function' },
            function: { type: 'object', required: ['name'], properties: { name: { type: 'string' } } },
          },
        },
      ],
    },
    response_format: {
      type: 'object',
      required: ['type'],
      properties: {
        type: { enum: ['text', 'json_object', 'json_schema'] },
        json_schema: {
          type: 'object',
          required: ['name'],
          properties: { name: { type: 'string' }, schema: { type: 'object' }, strict: { type: ['boolean', 'null'] } },
        },
      },
      if: { properties: { type: { const: 'json_schema' } } },
      then: { required: ['json_schema'] },
    },
    seed: { type: ['integer', 'null'] },
    modalities: { type: ['array', 'null'], items: { enum: ['text', 'audio'] } },
    audio: {
      type: ['object', 'null'],
      required: ['voice', 'format'],
      properties: { voice: { type: 'string' }, format: { type: 'string' } },
    },
    reasoning_effort: { type: ['string', 'null'] },
    ...forwarded,
  },
} as const;

/** A chat completions body as the schema admits it (unknown fields pass through untyped). */
export type ChatRequestBody = FromSchema<typeof chatRequestSchema>;
