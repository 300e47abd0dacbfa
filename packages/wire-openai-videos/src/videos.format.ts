import { openAiErrorShape, type WireFormat } from '@gateway/http-kit';
import { openAiVideosRoutes } from './videos.openapi';
import { openAiVideosRouter, OPENAI_VIDEOS_FORMAT, type OpenAiVideosRouterDeps } from './videos.router';

/** OpenAI videos (Sora) over the task engine. */
export const openAiVideosFormat: WireFormat<OpenAiVideosRouterDeps> = {
  name: OPENAI_VIDEOS_FORMAT,
  routers: (deps) => [openAiVideosRouter(deps)],
  routeDocs: openAiVideosRoutes,
  errorShapes: [openAiErrorShape],
};
