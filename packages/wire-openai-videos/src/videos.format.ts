import { openAiErrorShape, type WireFormat } from '@gateway/http-kit';
import { openAiVideosRoutes, OPENAI_VIDEOS_FORMAT, type OpenAiVideosRouterDeps } from './videos.router';

/** OpenAI videos (Sora) over the task engine. */
export const openAiVideosFormat: WireFormat<OpenAiVideosRouterDeps> = {
  name: OPENAI_VIDEOS_FORMAT,
  routes: openAiVideosRoutes,
  errorShapes: [openAiErrorShape],
};
