import type { RerankRequest, RerankResult } from '../rerank';
import type { CallContext } from './text-model.port';

/** An upstream that ranks documents by relevance. Errors are thrown as GatewayError. */
export interface RerankModelPort {
  rerank(request: RerankRequest, ctx: CallContext): Promise<RerankResult>;
}
