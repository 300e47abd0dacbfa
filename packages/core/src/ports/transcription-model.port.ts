import type { TranscriptionRequest, TranscriptionResult, TranscriptionStreamPart } from '../transcription';
import type { CallContext } from './text-model.port';

/** An upstream that transcribes (or translates) audio. Errors are thrown as GatewayError. */
export interface TranscriptionModelPort {
  transcribe(request: TranscriptionRequest, ctx: CallContext): Promise<TranscriptionResult>;
  /** Optional: text as it is recognised. Without it, the use case streams transcribe()'s result. */
  stream?(request: TranscriptionRequest, ctx: CallContext): AsyncIterable<TranscriptionStreamPart>;
}
