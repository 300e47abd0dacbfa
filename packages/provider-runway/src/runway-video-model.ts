import { Readable } from 'node:stream';
import { GatewayError, type OperationRef, type VideoModelPort, type VideoRequest, type VideoStatus } from '@gateway/provider-kit';
import { malformedUpstream, upstreamTaskNotFound, type UpstreamClient } from '@gateway/provider-kit';
import { runwayCreatedSchema, runwayTaskSchema, type RunwayTask } from './runway-api';
import { checkRunwayRequest, convertToRunwayTask } from './convert-to-runway-task';
import { mapRunwayTask } from './map-runway-task';

const notFound = (id: string) => upstreamTaskNotFound('Runway', 'does not know task', id);

/** A task id as the upstream issues it; the operation ref is the task id itself. */
const TASK_ID = /^[A-Za-z0-9_-]{1,128}$/;

function decodeRef(ref: string): string {
  if (!TASK_ID.test(ref)) throw notFound(ref);
  return ref;
}

/**
 * Runway's task API: create on image_to_video or text_to_video, read `/v1/tasks/{id}`, DELETE to cancel,
 * download the output URL (signed, on Runway's CDN, fetched without the key). Exactly-once: no
 * idempotency key, so idempotentStart stays off (docs/providers/runway.md).
 */
export class RunwayVideoModel implements VideoModelPort {
  constructor(private readonly http: UpstreamClient) {}

  check(req: VideoRequest & { upstreamModel: string }): void {
    checkRunwayRequest(req);
  }

  async start(req: VideoRequest & { upstreamModel: string }, ctx: { signal?: AbortSignal }): Promise<OperationRef> {
    const { path, body } = convertToRunwayTask(req);
    const created = await this.http.json({ method: 'POST', path, json: body, signal: ctx.signal }, runwayCreatedSchema, 'a created task');
    if (typeof created.id !== 'string' || !TASK_ID.test(created.id)) throw malformedUpstream('a created task without a usable id');
    return created.id;
  }

  async status(ref: OperationRef, ctx: { signal?: AbortSignal }): Promise<VideoStatus> {
    const id = decodeRef(ref);
    let t: RunwayTask;
    try {
      t = await this.http.json({ method: 'GET', path: `/v1/tasks/${id}`, signal: ctx.signal }, runwayTaskSchema, 'a task');
    } catch (e) {
      if (e instanceof GatewayError && e.upstreamStatus === 404) throw notFound(id);
      throw e;
    }
    return mapRunwayTask(t, async (url) => Readable.from((await this.http.download(url)).body()));
  }

  /** DELETE cancels a task that is not done (and deletes one that is). */
  async cancel(ref: OperationRef): Promise<void> {
    if (!TASK_ID.test(ref)) return;
    (await this.http.request({ method: 'DELETE', path: `/v1/tasks/${ref}` })).close();
  }
}
