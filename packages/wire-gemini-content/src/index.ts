export * from './generate-content.router';
export * from './generate-content.request.codec';
export * from './generate-content.response.codec';
export * from './generate-content.stream.codec';
export * from './gemini-schema';
export * from './generate-content.routes';
