import { BINARY_FILE, withFileFields } from '@gateway/http-kit';
import { transcriptionFieldsSchema, translationFieldsSchema } from './transcription.request.schema';

const audio = (type: string) => ({ type: 'string', contentMediaType: type });

export const speechResponse = {
  description: 'The audio in the requested format (chunked), or `speech.audio.delta` / `speech.audio.done` events.',
  content: {
    'audio/mpeg': audio('audio/mpeg'),
    'audio/ogg': audio('audio/ogg'),
    'audio/aac': audio('audio/aac'),
    'audio/flac': audio('audio/flac'),
    'audio/wav': audio('audio/wav'),
    'audio/pcm': audio('audio/pcm'),
    'text/event-stream': { type: 'string' },
  },
};

const transcript = {
  type: 'object',
  required: ['text'],
  properties: {
    text: { type: 'string' },
    task: { type: 'string' },
    language: { type: 'string' },
    duration: { type: 'number' },
    segments: { type: 'array', items: { type: 'object' } },
    words: { type: 'array', items: { type: 'object' } },
    usage: { type: 'object' },
  },
};

export const transcriptionResponse = {
  description: 'json / verbose_json: the transcript as JSON; text, srt, vtt: plain text; stream: `transcript.text.*` events.',
  content: { 'application/json': transcript, 'text/plain': { type: 'string' }, 'text/event-stream': { type: 'string' } },
};

/** The form as sent: lists as `key[]` (or the key repeated), numbers and booleans as text, the audio as `file`. */
export const transcriptionForm = { ...withFileFields(transcriptionFieldsSchema, { file: BINARY_FILE }), required: ['file', 'model'] };
export const translationForm = { ...withFileFields(translationFieldsSchema, { file: BINARY_FILE }), required: ['file', 'model'] };
