import { s, type Infer } from '@gateway/provider-kit';

/** The OpenAI images answers the gateway reads, as minimal schemas: every field may be missing, none mistyped. */
const openAiImageUsage = s.object({
  input_tokens: s.number(),
  output_tokens: s.number(),
  total_tokens: s.number(),
  input_tokens_details: s.object({ image_tokens: s.number(), text_tokens: s.number() }),
});

export const openAiImagesResponseSchema = s.object({
  created: s.number(),
  data: s.array(s.object({ b64_json: s.string(), url: s.string(), revised_prompt: s.string() })),
  output_format: s.string(),
  background: s.string(),
  quality: s.string(),
  usage: openAiImageUsage,
});

/** One streamed event: `image_generation.partial_image`, `image_generation.completed`, `image_edit.*`. */
export const openAiImageStreamEventSchema = s.object({
  type: s.string(),
  b64_json: s.string(),
  partial_image_index: s.number(),
  output_format: s.string(),
  usage: openAiImageUsage,
  error: s.object({ message: s.string(), code: s.string() }),
});

export type OpenAiImageUsage = Infer<typeof openAiImageUsage>;
export type OpenAiImagesResponse = Infer<typeof openAiImagesResponseSchema>;
export type OpenAiImageStreamEvent = Infer<typeof openAiImageStreamEventSchema>;
