/** Speech: text spoken as audio, whatever the upstream. */
import type { Warning } from './warnings';

export type SpeechFormat = 'mp3' | 'opus' | 'aac' | 'flac' | 'wav' | 'pcm';

export interface SpeechRequest {
  /** the upstream model name (the use case sets it per deployment) */
  model: string;
  input: string;
  /** a built-in voice by name, or a custom voice by id */
  voice: string | { id: string };
  instructions?: string;
  format: SpeechFormat;
  speed?: number;
}

export interface SpeechResult {
  audio: Uint8Array;
  mediaType: string;
  warnings: Warning[];
  upstreamRequestId?: string;
}

/**
 * A streamed speech call's parts: what the upstream will not do when it is known before the audio (so the answer's
 * headers can carry it), audio chunks in the requested format, then the end (with every warning).
 */
export type SpeechStreamPart =
  { type: 'warnings'; warnings: Warning[] } | { type: 'audio'; data: Uint8Array } | { type: 'finish'; warnings: Warning[] };
