export * from './images.router';
export * from './image-inputs';
export * from './images.request.codec';
export * from './images.response.codec';
export * from './images.stream.codec';
export * from './images.routes';
