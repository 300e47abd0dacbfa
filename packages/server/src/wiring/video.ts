import type { Moderation } from '@gateway/core';
import type { AreaWiring, WiringContext } from './context';
import { wireGuardrails } from './guardrails';
import { buildVideoEngine } from './video-engine';

/** Video: one task engine (service + worker) behind the three video wire formats. */
export function wireVideo(ctx: WiringContext, moderation: Moderation) {
  const engine = buildVideoEngine({ ...ctx, guardrails: wireGuardrails(ctx, moderation) });
  return {
    services: { videos: engine.service },
    videos: engine.service,
    content: engine.content,
    /** a task changed somewhere (a new one, most usefully): the worker claims now instead of at its next poll */
    wake: () => engine.wake(),
    start: () => engine.start(),
    stop: () => engine.stop(),
  } satisfies AreaWiring & { videos: unknown; content: unknown; wake: () => void };
}
