export { videoTasksFormat } from './tasks.format';
export { createTaskRequestDoc } from './tasks.openapi';
export { decodeCreateTask } from './tasks.request.codec';
export { videoTasksRouter, type VideoTasksRouterDeps } from './tasks.router';
