import { type OperationRef, type VideoModelPort, type VideoRequest, type VideoStatus } from '@gateway/provider-kit';
import { malformedUpstream, openDownload, upstreamTaskIds, type UpstreamCall, type UpstreamClient } from '@gateway/provider-kit';
import { klingEnvelopeSchema, type KlingTask, type KlingTaskKind } from './kling-api';
import type { KlingTokens } from './kling-auth';
import { checkKlingRequest, convertToKlingTask, klingTaskKind } from './convert-to-kling-task';
import { mapKlingTask } from './map-kling-task';

const tasks = upstreamTaskIds('Kling', 'does not know task');
const REF = /^(text2video|image2video)\/([A-Za-z0-9_-]{1,128})$/;

/** The ref is the task's route and id, `text2video/{id}`: the two things a read needs. */
function decodeKlingRef(ref: string): { kind: KlingTaskKind; id: string } {
  const m = REF.exec(ref);
  if (!m) throw tasks.notFound(ref);
  return { kind: m[1] as KlingTaskKind, id: m[2]! };
}

/**
 * Kling through its task API: create on text2video or image2video, read on the same route, download the
 * result URL (on Kling's CDN, fetched without the token). Every call signs with a fresh-enough JWT.
 * Exactly-once: the create takes an `external_task_id`, but a lost create cannot be read back by it
 * reliably across both routes, so idempotentStart stays off (docs/providers/kling.md). Kling has no cancel.
 */
export class KlingVideoModel implements VideoModelPort {
  constructor(
    private readonly http: UpstreamClient,
    private readonly tokens: KlingTokens,
  ) {}

  check(req: VideoRequest): void {
    checkKlingRequest(req);
  }

  async start(req: VideoRequest & { upstreamModel: string }, ctx: { signal?: AbortSignal }): Promise<OperationRef> {
    const kind = klingTaskKind(req);
    const task = await this.call(
      { method: 'POST', path: `/v1/videos/${kind}`, json: convertToKlingTask(req), signal: ctx.signal },
      'a created task',
    );
    return `${kind}/${tasks.created(task.task_id, 'a created task without a usable task_id')}`;
  }

  async status(ref: OperationRef, ctx: { signal?: AbortSignal }): Promise<VideoStatus> {
    const { kind, id } = decodeKlingRef(ref);
    const task = await tasks.read(id, this.call({ method: 'GET', path: `/v1/videos/${kind}/${id}`, signal: ctx.signal }, 'a task'));
    return mapKlingTask(task, openDownload(this.http));
  }

  private async call(call: UpstreamCall, what: string): Promise<KlingTask> {
    const env = await this.http.json({ ...call, headers: { authorization: this.tokens.authorization() } }, klingEnvelopeSchema, what);
    if (!env.data) throw malformedUpstream(`${what} without data`);
    return env.data;
  }
}
