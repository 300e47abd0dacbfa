export { geminiVideoFormat } from './gemini-video.format';
export { decodePredictRequest } from './predict.request.codec';
export { predictRequestSchema } from './predict.request.schema';
