import {
  GatewayError,
  unsupportedSetting,
  type CallContext,
  type TranscriptionModelPort,
  type TranscriptionRequest,
  type TranscriptionResult,
  type TranscriptionStreamPart,
  type Warning,
} from '../contract-core';
import { jsonEvents } from '../sse-parser';
import { malformedUpstream } from '../upstream-errors';
import type { UpstreamClient } from '../upstream-client';
import { transcriptionEventSchema, transcriptionResponseSchema, type TranscriptionResponse } from './transcription-api';

/** What an OpenAI-dialect transcription server can answer: some (gpt-4o-transcribe) give text alone, no timing. */
export interface TranscriptionDialect {
  /** the model answers `json` only: no segments or words */
  textOnly(upstreamModel: string): boolean;
  /** the model streams `transcript.text.*` events when sent `stream=true` */
  streams(upstreamModel: string): boolean;
}

/** Whisper servers: timing on request, no stream. */
export const WHISPER_DIALECT: TranscriptionDialect = { textOnly: () => false, streams: () => false };

function resultOf(a: TranscriptionResponse, warnings: Warning[]): TranscriptionResult {
  if (a.text === undefined) throw malformedUpstream('a transcription without text');
  const u = a.usage;
  const tokens = u?.type === 'tokens' || u?.input_tokens !== undefined;
  return {
    text: a.text,
    ...(a.language ? { language: a.language } : {}),
    ...(a.duration !== undefined || u?.seconds !== undefined ? { durationSeconds: a.duration ?? u!.seconds } : {}),
    ...(a.segments ? { segments: a.segments.map((g) => ({ start: g.start ?? 0, end: g.end ?? 0, text: g.text ?? '' })) } : {}),
    ...(a.words ? { words: a.words.map((w) => ({ word: w.word ?? '', start: w.start ?? 0, end: w.end ?? 0 })) } : {}),
    ...(tokens ? { usage: { inputTokens: u!.input_tokens ?? 0, outputTokens: u!.output_tokens ?? 0 } } : {}),
    warnings,
  };
}

/**
 * `POST /audio/transcriptions` and `/audio/translations` in OpenAI's dialect (OpenAI, vLLM, faster-whisper servers,
 * Groq): the upstream is asked for verbose_json only when the caller needs timing (servers that lack it are not
 * forced into it), and for a stream only where the model streams; an answer that is JSON after all is one delta.
 */
export class TranscriptionsModel implements TranscriptionModelPort {
  constructor(
    private readonly http: UpstreamClient,
    private readonly dialect: TranscriptionDialect = WHISPER_DIALECT,
  ) {}

  private form(req: TranscriptionRequest, stream: boolean): { form: FormData; warnings: Warning[] } {
    const warnings: Warning[] = [];
    const form = new FormData();
    form.append('file', new Blob([req.audio.data], req.audio.mediaType ? { type: req.audio.mediaType } : {}), req.audio.filename);
    form.append('model', req.model);
    if (req.language && req.task === 'transcribe') form.append('language', req.language);
    if (req.prompt) form.append('prompt', req.prompt);
    if (req.temperature !== undefined) form.append('temperature', String(req.temperature));
    let timed = Boolean(req.timestampGranularities?.length);
    if (timed && this.dialect.textOnly(req.model)) {
      warnings.push(unsupportedSetting('timestamp_granularities', `${req.model} answers text without timing.`));
      timed = false;
    }
    form.append('response_format', timed ? 'verbose_json' : 'json');
    if (timed) for (const g of req.timestampGranularities!) form.append('timestamp_granularities[]', g);
    if (stream) form.append('stream', 'true');
    return { form, warnings };
  }

  private path(req: TranscriptionRequest) {
    return req.task === 'translate' ? '/audio/translations' : '/audio/transcriptions';
  }

  async transcribe(req: TranscriptionRequest, ctx: CallContext): Promise<TranscriptionResult> {
    const { form, warnings } = this.form(req, false);
    const res = await this.http.request({ method: 'POST', path: this.path(req), form, signal: ctx.signal });
    return { ...resultOf(await res.json(transcriptionResponseSchema, 'a transcription'), warnings), upstreamRequestId: res.requestId };
  }

  async *stream(req: TranscriptionRequest, ctx: CallContext): AsyncGenerator<TranscriptionStreamPart> {
    const streams = req.task === 'transcribe' && !req.timestampGranularities?.length && this.dialect.streams(req.model);
    const { form, warnings } = this.form(req, streams);
    const res = await this.http.request({ method: 'POST', path: this.path(req), form, signal: ctx.signal });
    if (!res.headers['content-type']?.includes('text/event-stream')) {
      const result = {
        ...resultOf(await res.json(transcriptionResponseSchema, 'a transcription'), warnings),
        upstreamRequestId: res.requestId,
      };
      yield { type: 'text-delta', delta: result.text };
      yield { type: 'finish', result };
      return;
    }
    try {
      for await (const { data: e } of jsonEvents(res.events(), transcriptionEventSchema, 'a transcription event')) {
        if (e.error)
          throw new GatewayError('upstream_error', e.error.message || 'The upstream transcription failed.', {
            code: 'upstream_stream_error',
          });
        if (e.type === 'transcript.text.delta' && e.delta) yield { type: 'text-delta', delta: e.delta };
        if (e.type === 'transcript.text.done') {
          yield { type: 'finish', result: { ...resultOf({ text: e.text, usage: e.usage }, warnings), upstreamRequestId: res.requestId } };
          return;
        }
      }
    } finally {
      res.close();
    }
    throw malformedUpstream('a transcription stream that ended before transcript.text.done');
  }
}
