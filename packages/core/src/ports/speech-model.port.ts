import type { SpeechRequest, SpeechResult, SpeechStreamPart } from '../speech';
import type { CallContext } from './text-model.port';

/** An upstream that speaks text. Errors are thrown as GatewayError. */
export interface SpeechModelPort {
  speak(request: SpeechRequest, ctx: CallContext): Promise<SpeechResult>;
  /** Optional: audio as it is made. Without it, the use case streams speak()'s result. */
  stream?(request: SpeechRequest, ctx: CallContext): AsyncIterable<SpeechStreamPart>;
}
