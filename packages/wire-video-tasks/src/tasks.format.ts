import { codeMessageErrorShape, type WireFormat } from '@gateway/http-kit';
import { videoTasksRoutes } from './tasks.openapi';
import { VIDEO_TASKS_FORMAT, videoTasksRouter, type VideoTasksRouterDeps } from './tasks.router';

/** The content-generation task API (`{code, message}` errors) over the task engine. */
export const videoTasksFormat: WireFormat<VideoTasksRouterDeps> = {
  name: VIDEO_TASKS_FORMAT,
  routers: (deps) => [videoTasksRouter(deps)],
  routeDocs: videoTasksRoutes,
  errorShapes: [codeMessageErrorShape],
  pathClaims: [{ path: '/v1/contents/generations/tasks', shape: codeMessageErrorShape.name }],
};
