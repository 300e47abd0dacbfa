export * from './videos.router';
export * from './videos.request.codec';
export * from './videos.query.codec';
export * from './video.object.codec';
export * from './videos.routes';
