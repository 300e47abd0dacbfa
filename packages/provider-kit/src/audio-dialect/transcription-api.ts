import { s, type Infer } from '../upstream-schema';

/** OpenAI's transcription answers as the gateway reads them (json and verbose_json): every field may be missing. */
const usage = s.object({ type: s.string(), seconds: s.number(), input_tokens: s.number(), output_tokens: s.number() });

export const transcriptionResponseSchema = s.object({
  text: s.string(),
  language: s.string(),
  duration: s.number(),
  segments: s.array(s.object({ start: s.number(), end: s.number(), text: s.string() })),
  words: s.array(s.object({ word: s.string(), start: s.number(), end: s.number() })),
  usage,
});

/** `transcript.text.delta` / `transcript.text.done` (the done event carries the text and usage). */
export const transcriptionEventSchema = s.object({
  type: s.string(),
  delta: s.string(),
  text: s.string(),
  usage,
  error: s.object({ message: s.string(), code: s.string() }),
});

export type TranscriptionResponse = Infer<typeof transcriptionResponseSchema>;
