export * from './videos.router';
export * from './videos.request.codec';
export { createVideoRequestSchema, DEFAULT_VIDEO_SIZE, VIDEO_SIZES, type CreateVideoRequestBody } from './videos.request.schema';
export * from './videos.query.codec';
export * from './video.object.codec';
export * from './videos.routes';
