export * from './chat.router';
export * from './chat.request.codec';
export * from './chat.response.codec';
export * from './chat.stream.codec';
export * from './chat.routes';
