import { type OperationRef, type VideoModelPort, type VideoRequest, type VideoStatus } from '@gateway/provider-kit';
import { openDownload, upstreamTaskIds, type UpstreamClient } from '@gateway/provider-kit';
import { DASHSCOPE_SYNTHESIS_PATH, dashscopeTaskSchema } from './dashscope-api';
import { checkDashScopeRequest, convertToDashScopeVideo } from './convert-to-dashscope-video';
import { mapDashScopeTask } from './map-dashscope-task';

const tasks = upstreamTaskIds('DashScope', 'does not know task');

/**
 * Wan through DashScope: async create, the task read, cancel (PENDING only), the result URL (an OSS link
 * valid for 24 h, fetched without the key). Exactly-once: no idempotency key, so idempotentStart stays off
 * (docs/providers/dashscope.md).
 */
export class DashScopeVideoModel implements VideoModelPort {
  constructor(private readonly http: UpstreamClient) {}

  check(req: VideoRequest): void {
    checkDashScopeRequest(req);
  }

  async start(req: VideoRequest & { upstreamModel: string }, ctx: { signal?: AbortSignal }): Promise<OperationRef> {
    const created = await this.http.json(
      {
        method: 'POST',
        path: DASHSCOPE_SYNTHESIS_PATH,
        // HTTP calls are asynchronous only; without this header the API refuses the call.
        headers: { 'x-dashscope-async': 'enable' },
        json: convertToDashScopeVideo(req),
        signal: ctx.signal,
      },
      dashscopeTaskSchema,
      'a created task',
    );
    return tasks.created(created.output?.task_id, 'a created task without a usable task_id');
  }

  async status(ref: OperationRef, ctx: { signal?: AbortSignal }): Promise<VideoStatus> {
    const id = tasks.decode(ref);
    const t = await tasks.read(
      id,
      this.http.json({ method: 'GET', path: `/tasks/${id}`, signal: ctx.signal }, dashscopeTaskSchema, 'a task'),
    );
    // DashScope answers an id it does not know (or no longer keeps) with 200 and task_status UNKNOWN.
    if (t.output?.task_status === 'UNKNOWN') throw tasks.notFound(id);
    return mapDashScopeTask(t, openDownload(this.http));
  }

  /** Only a PENDING task can be cancelled; DashScope refuses the rest (the gateway then stops polling). */
  async cancel(ref: OperationRef): Promise<void> {
    if (!tasks.valid(ref)) return;
    (await this.http.request({ method: 'POST', path: `/tasks/${ref}/cancel` })).close();
  }
}
