/** The OpenAI images shapes the gateway reads. Every field may be missing. */
export interface OpenAiImageUsage {
  input_tokens?: number;
  output_tokens?: number;
  total_tokens?: number;
  input_tokens_details?: { image_tokens?: number; text_tokens?: number };
}

export interface OpenAiImagesResponse {
  created?: number;
  data?: Array<{ b64_json?: string; url?: string; revised_prompt?: string }>;
  output_format?: string;
  usage?: OpenAiImageUsage;
}

/** One streamed event: `image_generation.partial_image`, `image_generation.completed`, `image_edit.*`. */
export interface OpenAiImageStreamEvent {
  type?: string;
  b64_json?: string;
  partial_image_index?: number;
  output_format?: string;
  usage?: OpenAiImageUsage;
  error?: { message?: string; code?: string };
}
