export { geminiVideoFormat } from './gemini-video.format';
export { decodePredictRequest, predictBody } from './predict.request.codec';
export { predictRequestSchema } from './predict.request.schema';
