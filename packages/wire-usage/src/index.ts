export * from './usage.router';
export * from './usage.routes';
