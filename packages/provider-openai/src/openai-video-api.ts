/** The Sora video shapes the gateway reads. Every field may be missing. */
export interface OpenAiVideo {
  id?: string;
  object?: string;
  model?: string;
  status?: 'queued' | 'in_progress' | 'completed' | 'failed' | string;
  progress?: number;
  created_at?: number;
  completed_at?: number | null;
  expires_at?: number | null;
  /** a string of whole seconds, e.g. "8" */
  seconds?: string;
  /** e.g. "1280x720" */
  size?: string;
  error?: { code?: string; message?: string } | null;
}
