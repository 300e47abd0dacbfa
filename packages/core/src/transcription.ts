/** Transcription and translation: audio to text, whatever the upstream. */
import type { Warning } from './warnings';

export interface TranscriptionRequest {
  /** the upstream model name (the use case sets it per deployment) */
  model: string;
  /** translate: the text in English, whatever the language spoken */
  task: 'transcribe' | 'translate';
  audio: { data: Uint8Array; filename: string; mediaType?: string };
  language?: string;
  prompt?: string;
  temperature?: number;
  timestampGranularities?: ReadonlyArray<'word' | 'segment'>;
}

export interface TranscriptionSegment {
  start: number;
  end: number;
  text: string;
}

export interface TranscriptionResult {
  text: string;
  language?: string;
  /** the audio's length: what the call is priced by */
  durationSeconds?: number;
  segments?: TranscriptionSegment[];
  words?: Array<{ word: string; start: number; end: number }>;
  usage?: { inputTokens?: number; outputTokens?: number };
  warnings: Warning[];
  upstreamRequestId?: string;
}

/** A streamed transcription's parts: text as it is recognised, then the whole result. */
export type TranscriptionStreamPart = { type: 'text-delta'; delta: string } | { type: 'finish'; result: TranscriptionResult };
