import { codeMessageErrorShape, type WireFormat } from '@gateway/http-kit';
import { videoTasksRoutes } from './tasks.openapi';
import { VIDEO_TASKS_FORMAT, videoTasksRouter, type VideoTasksRouterDeps } from './tasks.router';

export interface VideoTasksFormatDeps extends Omit<VideoTasksRouterDeps, 'publicBaseUrl'> {
  publicBaseUrl: () => string;
}

/** The content-generation task API (`{code, message}` errors) over the task engine. */
export const videoTasksFormat: WireFormat<VideoTasksFormatDeps> = {
  name: VIDEO_TASKS_FORMAT,
  routers: (deps) => [videoTasksRouter({ ...deps, publicBaseUrl: deps.publicBaseUrl() })],
  routeDocs: videoTasksRoutes,
  errorShapes: [codeMessageErrorShape],
  pathClaims: [{ path: '/v1/contents/generations/tasks', shape: codeMessageErrorShape.name }],
};
