export * from './messages.router';
export * from './messages.request.codec';
export * from './messages.response.codec';
export * from './messages.stream.codec';
export * from './anthropic-version';
export * from './messages.routes';
