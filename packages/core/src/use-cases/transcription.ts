import type { Principal } from '../auth';
import type { ModelSpec } from '../catalogue';
import { GatewayError, invalid } from '../errors';
import type { TranscriptionModelPort } from '../ports/transcription-model.port';
import type { CallContext } from '../ports/text-model.port';
import type { TranscriptionRequest, TranscriptionResult, TranscriptionStreamPart } from '../transcription';
import type { RoutedCallDeps } from './deployment-selection';
import { MeteredUseCase, meteredAnswer, type KindProviderLookup, type Metered } from './metered-call';
import type { RoutedCallMeta } from './usage-record';

/** OpenAI's limit on an upload, held for every upstream (the multipart parser refuses a larger one as it arrives). */
export const TRANSCRIPTION_LIMITS = Object.freeze({ maxFileBytes: 25 * 1024 * 1024 });

/** A transcription request as the formats decode it. */
export type TranscriptionCommand = Omit<TranscriptionRequest, 'model'>;

export function checkTranscriptionCommand(c: TranscriptionCommand): void {
  const size = c.audio.data.byteLength;
  if (size === 0) throw invalid('empty_file', 'The uploaded file is empty.', 'file');
  if (size > TRANSCRIPTION_LIMITS.maxFileBytes) {
    throw new GatewayError('payload_too_large', `The audio file may be at most ${TRANSCRIPTION_LIMITS.maxFileBytes} bytes.`, {
      code: 'file_too_large',
      param: 'file',
    });
  }
  if (c.temperature !== undefined && !(c.temperature >= 0 && c.temperature <= 1))
    throw invalid('invalid_temperature', '"temperature" must be between 0 and 1.', 'temperature');
}

/**
 * The audio's length when the upstream does not say: a PCM WAV's from its header, anything else from its size at
 * 128 kbit/s (a common MP3 rate). A guess, so the row is marked estimated.
 */
export function estimatedAudioSeconds(data: Uint8Array): number {
  const ascii = (at: number) => String.fromCharCode(...data.subarray(at, at + 4));
  const round = (n: number) => Math.round(n * 1000) / 1000;
  if (data.length > 44 && ascii(0) === 'RIFF' && ascii(8) === 'WAVE') {
    const byteRate = new DataView(data.buffer, data.byteOffset, data.byteLength).getUint32(28, true);
    if (byteRate > 0) return round((data.length - 44) / byteRate);
  }
  return round(data.length / 16_000);
}

function metered(r: TranscriptionRequest, result?: TranscriptionResult): Metered {
  const seconds = result?.durationSeconds;
  const tokens = result?.usage;
  const usage = {
    audioSeconds: seconds ?? estimatedAudioSeconds(r.audio.data),
    ...(tokens?.inputTokens !== undefined ? { inputTokens: tokens.inputTokens } : {}),
    ...(tokens?.outputTokens !== undefined ? { outputTokens: tokens.outputTokens } : {}),
  };
  return meteredAnswer(usage, seconds === undefined, result);
}

/** A port without a stream: its whole answer as one delta. */
async function* whole(
  port: TranscriptionModelPort,
  request: TranscriptionRequest,
  ctx: CallContext,
): AsyncGenerator<TranscriptionStreamPart> {
  const result = await port.transcribe(request, ctx);
  yield { type: 'text-delta', delta: result.text };
  yield { type: 'finish', result };
}

/**
 * Transcription and translation: the command checked against the limits, then a metered call (metered-call.ts)
 * priced per audio minute, by the duration the upstream reports (else the gateway's estimate, marked so).
 */
export class Transcription extends MeteredUseCase<
  TranscriptionModelPort,
  TranscriptionRequest,
  TranscriptionResult,
  TranscriptionStreamPart
> {
  constructor(deps: RoutedCallDeps, providers: KindProviderLookup<TranscriptionModelPort>) {
    super(deps, providers, {
      kind: 'transcription',
      operation: 'transcription',
      call: (port, request, ctx) => port.transcribe(request, ctx),
      measure: (answer, request) => metered(request, answer),
      estimate: (request) => metered(request),
      open: (port, request, ctx) => (port.stream ? port.stream(request, ctx) : whole(port, request, ctx)),
      measurePart: (part, request) => (part.type === 'finish' ? metered(request, part.result) : undefined),
    });
  }

  answer(principal: Principal, model: ModelSpec, command: TranscriptionCommand, meta: RoutedCallMeta): Promise<TranscriptionResult> {
    checkTranscriptionCommand(command);
    return this.calls.answer(principal, model, { ...command, model: model.id }, meta);
  }

  stream(
    principal: Principal,
    model: ModelSpec,
    command: TranscriptionCommand,
    meta: RoutedCallMeta,
  ): AsyncGenerator<TranscriptionStreamPart> {
    checkTranscriptionCommand(command);
    return this.calls.stream(principal, model, { ...command, model: model.id }, meta);
  }
}
