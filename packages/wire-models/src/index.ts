export * from './gemini-models.router';
export * from './v1-models.router';
export * from './models-router-deps';
export * from './gemini-models.codec';
export * from './anthropic-models.codec';
export * from './openai-models.codec';
export * from './model-metadata';
export * from './models.routes';
