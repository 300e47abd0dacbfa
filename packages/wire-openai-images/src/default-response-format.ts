import type { ResponseFormat } from './images.response.codec';

/**
 * OpenAI's GPT image models always answer with `b64_json` and clients asking for them send no
 * `response_format` (the Vercel AI SDK then reads `b64_json` only); DALL-E style ids default to `url`.
 * Keyed on the id the client asked for, which is what the client's expectation follows.
 */
export function defaultResponseFormat(requestedModel: unknown, given: ResponseFormat | null | undefined): ResponseFormat {
  if (given) return given;
  return typeof requestedModel === 'string' && requestedModel.startsWith('gpt-image') ? 'b64_json' : 'url';
}
