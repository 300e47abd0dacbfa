export * from './tasks.router';
export * from './tasks.request.codec';
export * from './tasks.query.codec';
export * from './task.object.codec';
export * from './content-items.codec';
export * from './tasks.routes';
