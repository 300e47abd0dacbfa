import { Readable } from 'node:stream';
import { GatewayError, type OperationRef, type VideoModelPort, type VideoRequest, type VideoStatus } from '@gateway/provider-kit';
import { malformedUpstream, upstreamTaskNotFound, type UpstreamClient } from '@gateway/provider-kit';
import { DASHSCOPE_SYNTHESIS_PATH, dashscopeTaskSchema, type DashScopeTask } from './dashscope-api';
import { checkDashScopeRequest, convertToDashScopeVideo } from './convert-to-dashscope-video';
import { mapDashScopeTask } from './map-dashscope-task';

const notFound = (id: string) => upstreamTaskNotFound('DashScope', 'does not know task', id);

/** A task id as the upstream issues it; the operation ref is the task id itself. */
const TASK_ID = /^[A-Za-z0-9_-]{1,128}$/;

function decodeRef(ref: string): string {
  if (!TASK_ID.test(ref)) throw notFound(ref);
  return ref;
}

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
    const id = created.output?.task_id;
    if (typeof id !== 'string' || !TASK_ID.test(id)) throw malformedUpstream('a created task without a usable task_id');
    return id;
  }

  async status(ref: OperationRef, ctx: { signal?: AbortSignal }): Promise<VideoStatus> {
    const id = decodeRef(ref);
    let t: DashScopeTask;
    try {
      t = await this.http.json({ method: 'GET', path: `/tasks/${id}`, signal: ctx.signal }, dashscopeTaskSchema, 'a task');
    } catch (e) {
      if (e instanceof GatewayError && e.upstreamStatus === 404) throw notFound(id);
      throw e;
    }
    // DashScope answers an id it does not know (or no longer keeps) with 200 and task_status UNKNOWN.
    if (t.output?.task_status === 'UNKNOWN') throw notFound(id);
    return mapDashScopeTask(t, async (url) => Readable.from((await this.http.download(url)).body()));
  }

  /** Only a PENDING task can be cancelled; DashScope refuses the rest (the gateway then stops polling). */
  async cancel(ref: OperationRef): Promise<void> {
    if (!TASK_ID.test(ref)) return;
    (await this.http.request({ method: 'POST', path: `/tasks/${ref}/cancel` })).close();
  }
}
