import { taskErrorOf, type VideoTask } from '@gateway/core';
import { rpcStatusOf } from './rpc-status';

export const GENERATE_VIDEO_RESPONSE_TYPE = 'type.googleapis.com/google.ai.generativelanguage.v1beta.GenerateVideoResponse';

/** The SDK polls `GET /v1beta/<name>` verbatim, so this name is also the poll route. */
export function operationName(task: Pick<VideoTask, 'model' | 'id'>): string {
  return `models/${task.model}/operations/${task.id}`;
}

/**
 * On the scheme and host of PUBLIC_BASE_URL, so a client that fetches the uri itself (@ai-sdk/google, curl) reaches
 * the gateway: http when it is served over http. (@google/genai's `files.download` extracts the id only from an
 * https uri; over plain http, pass it `files/<id>` instead: docs/formats/gemini-video.md.)
 */
export function fileDownloadUri(publicBaseUrl: string, fileId: string): string {
  return `${publicBaseUrl.replace(/\/+$/, '')}/v1beta/files/${fileId}:download?alt=media`;
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
