export { openAiVideosFormat } from './videos.format';
export { createVideoBody, decodeCreateVideo } from './videos.request.codec';
export { createVideoRequestSchema } from './videos.request.schema';
export { sendVideoContent, videoContentParams, videoContentResponse } from './video-content.download';
