import { taskErrorOf, type VideoTask } from '@gateway/core';
import { rpcStatusOf } from './rpc-status';

export const GENERATE_VIDEO_RESPONSE_TYPE = 'type.googleapis.com/google.ai.generativelanguage.v1beta.GenerateVideoResponse';

/** The SDK polls `GET /v1beta/<name>` verbatim, so this name is also the poll route. */
export function operationName(task: Pick<VideoTask, 'model' | 'id'>): string {
  return `models/${task.model}/operations/${task.id}`;
}

/**
 * Always https: the @google/genai SDK only extracts a file id from URIs starting with `https://`
 * (it then calls its own base URL, ignoring this host), and builds a broken path from `http://`.
 */
export function fileDownloadUri(publicBaseUrl: string, fileId: string): string {
  const base = publicBaseUrl.replace(/\/+$/, '').replace(/^http:\/\//i, 'https://');
  return `${base}/v1beta/files/${fileId}:download?alt=media`;
}

/** A task as a google.longrunning Operation: done:false while pending, then response or error. */
export function encodeOperation(task: VideoTask, publicBaseUrl: string): Record<string, unknown> {
  const name = operationName(task);
  switch (task.status) {
    case 'queued':
    case 'running':
      return { name, done: false };
    case 'succeeded':
      return {
        name,
        done: true,
        response: {
          '@type': GENERATE_VIDEO_RESPONSE_TYPE,
          // The file id is the task id: lowercase letters and digits, which the SDK keeps intact.
          generateVideoResponse: { generatedSamples: [{ video: { uri: fileDownloadUri(publicBaseUrl, task.id), encoding: 'video/mp4' } }] },
        },
      };
    default: {
      const e = taskErrorOf(task)!;
      return { name, done: true, error: rpcStatusOf(e) };
    }
  }
}
