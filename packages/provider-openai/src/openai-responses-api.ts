import { s, upstreamModerationSchema, type Infer } from '@gateway/provider-kit';

/**
 * The Responses API answers the gateway reads (`POST /v1/responses`), as minimal schemas: every field may be
 * missing, one that is present has its type. Fields the gateway does not read pass through unchecked; a
 * same-format passthrough returns the raw JSON, not this checked copy.
 */
const outputContent = s.object({ type: s.string(), text: s.string(), refusal: s.string() });

export const responsesOutputItemSchema = s.object({
  type: s.string(),
  id: s.string(),
  status: s.string(),
  role: s.string(),
  content: s.array(outputContent),
  summary: s.array(s.object({ type: s.string(), text: s.string() })),
  encrypted_content: s.string(),
  call_id: s.string(),
  name: s.string(),
  namespace: s.string(),
  arguments: s.string(),
  /** custom_tool_call */
  input: s.string(),
});

const responsesUsage = s.object({
  input_tokens: s.number(),
  output_tokens: s.number(),
  total_tokens: s.number(),
  input_tokens_details: s.object({ cached_tokens: s.number() }),
  output_tokens_details: s.object({ reasoning_tokens: s.number() }),
});

const responsesError = s.object({ code: s.string(), message: s.string(), type: s.string() });

export const responseObjectSchema = s.object({
  id: s.string(),
  status: s.string(),
  model: s.string(),
  output: s.array(responsesOutputItemSchema),
  usage: responsesUsage,
  incomplete_details: s.object({ reason: s.string() }),
  error: responsesError,
  moderation: upstreamModerationSchema,
});

/** One SSE event of a streamed response; `type` names it. */
export const responseEventSchema = s.object({
  type: s.string(),
  sequence_number: s.number(),
  item_id: s.string(),
  output_index: s.number(),
  delta: s.string(),
  item: responsesOutputItemSchema,
  response: responseObjectSchema,
  /** the `error` event */
  code: s.string(),
  message: s.string(),
  error: responsesError,
});

export type ResponsesOutputItem = Infer<typeof responsesOutputItemSchema>;
export type ResponsesUsage = Infer<typeof responsesUsage>;
export type ResponseObject = Infer<typeof responseObjectSchema>;
export type ResponseEvent = Infer<typeof responseEventSchema>;

/** The inbound format whose bodies and hosted tools a Responses upstream takes as they are. */
export const RESPONSES_FORMAT = 'openai-responses';
