import type { Request } from 'express';

export type ModelListDialect = 'gemini' | 'anthropic' | 'openai';

/**
 * Whose list `GET /v1/models[/{id}]` answers with, read from how the caller authenticates: @google/genai (3.x calls
 * `/v1` by default) sends `x-goog-api-key` or `?key=`; the Anthropic SDK always sends `anthropic-version` (with
 * `x-api-key`, or a bearer token); the OpenAI SDK a bearer token alone. `/v1beta/models` is always Gemini's.
 */
export function modelListDialect(req: Pick<Request, 'header' | 'query'>): ModelListDialect {
  if (req.header('x-goog-api-key') !== undefined || typeof req.query.key === 'string') return 'gemini';
  if (req.header('anthropic-version') !== undefined) return 'anthropic';
  return 'openai';
}
