export { openAiVideosFormat } from './videos.format';
export { createVideoRequestDoc } from './videos.openapi';
export { decodeCreateVideo } from './videos.request.codec';
export { openAiVideosRouter, type OpenAiVideosRouterDeps } from './videos.router';
