export * from './gemini-video.router';
export * from './predict.request.codec';
export * from './operation.codec';
export * from './inline-image.codec';
export * from './gemini-video.routes';
export { INLINE_IMAGE_TYPES, predictRequestSchema, type PredictRequestBody } from './predict.request.schema';
