export { geminiVideoFormat } from './gemini-video.format';
export { predictRequestDoc } from './gemini-video.openapi';
export { geminiVideoRouter, type GeminiVideoRouterDeps } from './gemini-video.router';
export { decodePredictRequest } from './predict.request.codec';
