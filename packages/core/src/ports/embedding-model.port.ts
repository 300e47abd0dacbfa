import type { EmbeddingRequest, EmbeddingResult } from '../embedding';
import type { CallContext } from './text-model.port';

/** An upstream that embeds texts. Errors are thrown as GatewayError. */
export interface EmbeddingModelPort {
  embed(request: EmbeddingRequest, ctx: CallContext): Promise<EmbeddingResult>;
}
