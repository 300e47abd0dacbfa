import { codeMessageErrorShape, type WireFormat } from '@gateway/http-kit';
import { VIDEO_TASKS_FORMAT, videoTasksRoutes, type VideoTasksRouterDeps } from './tasks.router';

/** The content-generation task API (`{code, message}` errors) over the task engine. */
export const videoTasksFormat: WireFormat<VideoTasksRouterDeps> = {
  name: VIDEO_TASKS_FORMAT,
  routes: videoTasksRoutes,
  errorShapes: [codeMessageErrorShape],
  pathClaims: [{ path: '/v1/contents/generations/tasks', shape: codeMessageErrorShape.name }],
};
