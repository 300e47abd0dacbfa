import type { CallContext, ModerationModelPort, ModerationRequest, ModerationResult } from '@gateway/provider-kit';
import { moderateWords } from './moderation-words';

/** `sim-moderation`: each input's texts against the fixed word lists (moderation-words.ts); images are not looked at. */
export class SimulatorModerationModel implements ModerationModelPort {
  async moderate(request: ModerationRequest, _ctx: CallContext): Promise<ModerationResult> {
    return {
      results: request.items.map((item) =>
        moderateWords(
          item.flatMap((p) => (p.type === 'text' ? [p.text] : [])),
          item.some((p) => p.type === 'image'),
        ),
      ),
      warnings: [],
    };
  }
}
