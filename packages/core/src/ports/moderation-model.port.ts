import type { ModerationRequest, ModerationResult } from '../moderation';
import type { CallContext } from './text-model.port';

/** An upstream that scores content against moderation categories. Errors are thrown as GatewayError. */
export interface ModerationModelPort {
  moderate(request: ModerationRequest, ctx: CallContext): Promise<ModerationResult>;
}
