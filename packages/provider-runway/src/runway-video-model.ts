import { type OperationRef, type VideoModelPort, type VideoRequest, type VideoStatus } from '@gateway/provider-kit';
import { openDownload, upstreamTaskIds, type UpstreamClient } from '@gateway/provider-kit';
import { runwayCreatedSchema, runwayTaskSchema } from './runway-api';
import { checkRunwayRequest, convertToRunwayTask } from './convert-to-runway-task';
import { mapRunwayTask } from './map-runway-task';

const tasks = upstreamTaskIds('Runway', 'does not know task');

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
    return tasks.created(created.id, 'a created task without a usable id');
  }

  async status(ref: OperationRef, ctx: { signal?: AbortSignal }): Promise<VideoStatus> {
    const id = tasks.decode(ref);
    const t = await tasks.read(
      id,
      this.http.json({ method: 'GET', path: `/v1/tasks/${id}`, signal: ctx.signal }, runwayTaskSchema, 'a task'),
    );
    return mapRunwayTask(t, openDownload(this.http));
  }

  /** DELETE cancels a task that is not done (and deletes one that is). */
  async cancel(ref: OperationRef): Promise<void> {
    if (!tasks.valid(ref)) return;
    (await this.http.request({ method: 'DELETE', path: `/v1/tasks/${ref}` })).close();
  }
}
