import { s, type Infer } from '@gateway/provider-kit';

/** A Sora video as the gateway reads it, as a minimal schema: every field may be missing, none mistyped. */
export const openAiVideoSchema = s.object({
  id: s.string(),
  object: s.string(),
  model: s.string(),
  /** queued, in_progress, completed, failed */
  status: s.string(),
  progress: s.number(),
  created_at: s.number(),
  completed_at: s.number(),
  expires_at: s.number(),
  /** a string of whole seconds, e.g. "8" */
  seconds: s.string(),
  /** e.g. "1280x720" */
  size: s.string(),
  error: s.object({ code: s.string(), message: s.string() }),
});

export type OpenAiVideo = Infer<typeof openAiVideoSchema>;
