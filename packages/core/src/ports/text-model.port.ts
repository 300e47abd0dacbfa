import type { StreamForwarding } from '../stream-forwarding';
import type { TextRequest, TextResult, TextStreamPart } from '../text';

export interface CallContext {
  signal: AbortSignal;
  requestId: string;
  /** the client's offer to take the upstream's events as they come, when nothing in between reads them (stream-forwarding.ts) */
  forward?: StreamForwarding;
}

/** An upstream that generates text. Errors are thrown as GatewayError. */
export interface TextModelPort {
  generate(request: TextRequest, ctx: CallContext): Promise<TextResult>;
  stream(request: TextRequest, ctx: CallContext): AsyncIterable<TextStreamPart>;
  /** The request's input tokens as the upstream counts them; absent when the upstream cannot count. */
  countTokens?(request: TextRequest, ctx: CallContext): Promise<number>;
  /** the inbound formats whose hosted tools this upstream runs natively (hosted-tools.ts); none when absent */
  readonly hostedToolFormats?: readonly string[];
  /** runs the request's in-band `moderation` itself and answers its verdicts (OpenAI); else the gateway runs it */
  readonly moderatesInBand?: boolean;
}
