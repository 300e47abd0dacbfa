export { openAiVideosFormat } from './videos.format';
export { decodeCreateVideo } from './videos.request.codec';
export { openAiVideosRoutes, type OpenAiVideosRouterDeps } from './videos.router';
export { createVideoRequestSchema, DEFAULT_VIDEO_SIZE, VIDEO_SIZES, type CreateVideoRequestBody } from './videos.request.schema';
