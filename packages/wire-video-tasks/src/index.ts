export { videoTasksFormat } from './tasks.format';
export { createTaskRequestSchema } from './tasks.request.schema';
export { createTaskBody, decodeCreateTask } from './tasks.request.codec';
export { encodeTask } from './task.object.codec';
export { adminTaskRoutes, type AdminTaskDeps } from './admin-tasks.router';
