import type { TranscriptionResult, TranscriptionSegment } from '@gateway/core';
import type { TranscriptionCommand } from './audio.services';
import { toSrt, toVtt } from './subtitles';
import type { TranscriptFormat } from './transcription.request.schema';

export interface EncodedTranscript {
  contentType: string;
  body: string;
}

/** `usage` as OpenAI words it: tokens where the upstream counted them, else the audio's seconds (rounded up, as billed). */
export function transcriptUsage(result: TranscriptionResult): Record<string, unknown> | undefined {
  const u = result.usage;
  if (u?.inputTokens !== undefined || u?.outputTokens !== undefined) {
    const input = u.inputTokens ?? 0;
    const output = u.outputTokens ?? 0;
    return {
      type: 'tokens',
      input_tokens: input,
      input_token_details: { text_tokens: 0, audio_tokens: input },
      output_tokens: output,
      total_tokens: input + output,
    };
  }
  return result.durationSeconds === undefined ? undefined : { type: 'duration', seconds: Math.ceil(result.durationSeconds) };
}

/** The upstream's segments, or the whole text as one segment over the audio when it gave none. */
function segmentsOf(result: TranscriptionResult): TranscriptionSegment[] {
  if (result.segments?.length) return result.segments;
  return result.text ? [{ start: 0, end: result.durationSeconds ?? 0, text: result.text }] : [];
}

function verbose(request: TranscriptionCommand, result: TranscriptionResult) {
  const granularities = request.timestampGranularities ?? ['segment'];
  const usage = transcriptUsage(result);
  return {
    task: request.task,
    language: request.task === 'translate' ? 'english' : (result.language ?? request.language ?? 'english'),
    duration: result.durationSeconds ?? 0,
    text: result.text,
    ...(granularities.includes('word') ? { words: result.words ?? [] } : {}),
    ...(granularities.includes('segment')
      ? {
          segments: segmentsOf(result).map((s, id) => ({
            id,
            seek: 0,
            start: s.start,
            end: s.end,
            text: s.text,
            tokens: [],
            temperature: request.temperature ?? 0,
            avg_logprob: 0,
            compression_ratio: 1,
            no_speech_prob: 0,
          })),
        }
      : {}),
    ...(usage ? { usage } : {}),
  };
}

const TEXT = 'text/plain; charset=utf-8';
const JSON_TYPE = 'application/json; charset=utf-8';

/** The answer in the requested format: JSON for json and verbose_json, plain text for text, srt and vtt (as OpenAI sends them). */
export function encodeTranscript(request: TranscriptionCommand, format: TranscriptFormat, result: TranscriptionResult): EncodedTranscript {
  switch (format) {
    case 'text':
      return { contentType: TEXT, body: `${result.text}\n` };
    case 'srt':
      return { contentType: TEXT, body: toSrt(segmentsOf(result)) };
    case 'vtt':
      return { contentType: TEXT, body: toVtt(segmentsOf(result)) };
    case 'verbose_json':
      return { contentType: JSON_TYPE, body: JSON.stringify(verbose(request, result)) };
    default: {
      // a translation's json is the text alone, as OpenAI answers it
      const usage = request.task === 'transcribe' ? transcriptUsage(result) : undefined;
      return { contentType: JSON_TYPE, body: JSON.stringify({ text: result.text, ...(usage ? { usage } : {}) }) };
    }
  }
}
