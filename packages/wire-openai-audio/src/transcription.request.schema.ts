import type { FromSchema } from 'json-schema-to-ts';

export const TRANSCRIPT_FORMATS = ['json', 'text', 'srt', 'verbose_json', 'vtt'] as const;

/**
 * The text fields of a transcription form (the file is a part of its own, checked by the codec), after
 * coerceTranscriptionFields: numbers, booleans and `key[]` lists in their JSON types. Fields OpenAI takes for other
 * models (`include[]`, `chunking_strategy`, `languages[]`, `keywords[]`) are accepted and not forwarded.
 */
export const transcriptionFieldsSchema = {
  type: 'object',
  required: ['model'],
  additionalProperties: false,
  properties: {
    model: { type: 'string', minLength: 1 },
    language: { type: 'string', minLength: 1 },
    prompt: { type: 'string' },
    temperature: { type: 'number', minimum: 0, maximum: 1 },
    response_format: { enum: TRANSCRIPT_FORMATS },
    timestamp_granularities: { type: 'array', items: { enum: ['word', 'segment'] } },
    stream: { type: 'boolean' },
    include: { type: 'array', items: { type: 'string' } },
    chunking_strategy: { type: 'string' },
    languages: { type: 'array', items: { type: 'string' } },
    keywords: { type: 'array', items: { type: 'string' } },
  },
} as const;

/** Translations take fewer fields: the text is always English. */
export const translationFieldsSchema = {
  type: 'object',
  required: ['model'],
  additionalProperties: false,
  properties: {
    model: transcriptionFieldsSchema.properties.model,
    prompt: transcriptionFieldsSchema.properties.prompt,
    temperature: transcriptionFieldsSchema.properties.temperature,
    response_format: { enum: TRANSCRIPT_FORMATS },
  },
} as const;

export type TranscriptionFields = FromSchema<typeof transcriptionFieldsSchema>;
export type TranscriptFormat = (typeof TRANSCRIPT_FORMATS)[number];
