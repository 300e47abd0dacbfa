import type { RequestHandler } from 'express';
import { geminiVideoRouter } from '@gateway/wire-gemini-video';
import { openAiVideosRouter } from '@gateway/wire-openai-videos';
import { videoTasksRouter } from '@gateway/wire-video-tasks';
import type { AreaWiring, WiringContext } from './context';
import { buildVideoEngine, type VideoEngine } from './video-engine';

/** Video: one task engine (service + worker) behind the three video wire formats. */
export function wireVideo(ctx: WiringContext): AreaWiring & { engine: VideoEngine } {
  const engine = buildVideoEngine(ctx);
  // The video wire formats mount here, each over engine.service (the core's VideoTaskService).
  const deps = { authenticate: ctx.authenticate, videos: engine.service, publicBaseUrl: ctx.env.publicBaseUrl };
  const routers: RequestHandler[] = [geminiVideoRouter(deps), openAiVideosRouter(deps), videoTasksRouter(deps)];
  return { routers, engine, start: () => engine.start(), stop: () => engine.stop() };
}
