import type { FromSchema } from 'json-schema-to-ts';

/** OpenAI's limit on `input` and `instructions`, in characters. */
export const MAX_SPEECH_CHARACTERS = 4096;

/** `CreateSpeechRequest` (openai-openapi 2.3.0): unknown fields are refused, as OpenAI does. */
export const speechRequestSchema = {
  type: 'object',
  required: ['model', 'input', 'voice'],
  additionalProperties: false,
  properties: {
    model: { type: 'string' },
    input: { type: 'string', minLength: 1, maxLength: MAX_SPEECH_CHARACTERS },
    voice: {
      anyOf: [
        { type: 'string', minLength: 1 },
        { type: 'object', required: ['id'], additionalProperties: false, properties: { id: { type: 'string', minLength: 1 } } },
      ],
    },
    instructions: { type: 'string', maxLength: MAX_SPEECH_CHARACTERS },
    response_format: { enum: ['mp3', 'opus', 'aac', 'flac', 'wav', 'pcm'] },
    speed: { type: 'number', minimum: 0.25, maximum: 4 },
    stream_format: { enum: ['audio', 'sse'] },
  },
} as const;

export type SpeechRequestBody = FromSchema<typeof speechRequestSchema>;
