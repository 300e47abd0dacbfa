export { geminiVideoFormat } from './gemini-video.format';
export { geminiVideoRoutes, type GeminiVideoRouterDeps } from './gemini-video.router';
export { decodePredictRequest } from './predict.request.codec';
export { INLINE_IMAGE_TYPES, predictRequestSchema, type PredictRequestBody } from './predict.request.schema';
