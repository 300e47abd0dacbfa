import { Readable } from 'node:stream';
import { GatewayError, type VideoStatus } from '@gateway/core';
import type { UpstreamClient } from './upstream-client';
import { malformedUpstream, upstreamTaskNotFound } from './upstream-errors';

/** A task id as most upstreams issue it; an adapter uses it as the operation ref itself. */
const TASK_ID = /^[A-Za-z0-9_-]{1,128}$/;

/**
 * The ids of one upstream's tasks: checked before one goes into a path, and a task the upstream does not know (a ref
 * no task of it can have, a 404 on its read) fails as upstreamTaskNotFound, so the worker settles the task as failed.
 * `knows` words it, e.g. "does not know task".
 */
export function upstreamTaskIds(upstream: string, knows: string, pattern = TASK_ID) {
  const notFound = (id: string) => upstreamTaskNotFound(upstream, knows, id);
  return {
    notFound,
    valid: (id: string) => pattern.test(id),
    /** the ref as an id for a path */
    decode(ref: string): string {
      if (!pattern.test(ref)) throw notFound(ref);
      return ref;
    },
    /** the id a create answered; `what` names the answer when the id is missing or unusable */
    created(id: unknown, what: string): string {
      if (typeof id !== 'string' || !pattern.test(id)) throw malformedUpstream(what);
      return id;
    },
    /** a read of task `id`: its 404 means the upstream does not know the task */
    async read<T>(id: string, read: Promise<T>): Promise<T> {
      try {
        return await read;
      } catch (e) {
        if (e instanceof GatewayError && e.upstreamStatus === 404) throw notFound(id);
        throw e;
      }
    },
  };
}

/** A task the upstream failed, with its own code and message where it gives them. */
export const generationFailed = (code?: string, message?: string): VideoStatus => ({
  state: 'failed',
  code: code || 'generation_failed',
  message: message || 'The upstream failed to generate the video.',
});

/** A task the upstream reports done without naming its result (`what`, e.g. "a video URL"). */
export const missingVideo = (what: string): VideoStatus => ({
  state: 'failed',
  code: 'upstream_missing_video',
  message: `The upstream reported success without ${what}.`,
});

/** A result file the upstream links to, as the artifact's stream (download() keeps the key on the upstream's origin). */
export const openDownload = (http: UpstreamClient) => async (url: string) => Readable.from((await http.download(url)).body());
