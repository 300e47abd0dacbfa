import { type OperationRef, type VideoModelPort, type VideoRequest, type VideoStatus } from '@gateway/provider-kit';
import {
  malformedUpstream,
  openDownload,
  upstreamTaskIds,
  type UpstreamCall,
  type UpstreamClient,
  type UpstreamSchema,
} from '@gateway/provider-kit';
import { minimaxCreatedSchema, minimaxFileSchema, minimaxQuerySchema, type MiniMaxBaseResp } from './minimax-api';
import { minimaxBaseRespError } from './minimax-error';
import { checkMiniMaxRequest, convertToMiniMaxVideo } from './convert-to-minimax-video';
import { mapMiniMaxQuery } from './map-minimax-query';

const tasks = upstreamTaskIds('MiniMax', 'does not know task');
/** 2013 "invalid params" on a query that has only the task id: the id is not one of this account's tasks. */
const UNKNOWN_TASK = 2013;

/**
 * Hailuo through MiniMax's video API: create, query, then the file's download URL (fetched when the
 * worker copies the video, since the URL expires). Exactly-once: no idempotency key and no task listing
 * by the gateway's id, so idempotentStart stays off (docs/providers/minimax.md). MiniMax has no cancel.
 */
export class MiniMaxVideoModel implements VideoModelPort {
  constructor(private readonly http: UpstreamClient) {}

  check(req: VideoRequest): void {
    checkMiniMaxRequest(req);
  }

  async start(req: VideoRequest & { upstreamModel: string }, ctx: { signal?: AbortSignal }): Promise<OperationRef> {
    const created = await this.call(
      { method: 'POST', path: '/v1/video_generation', json: convertToMiniMaxVideo(req), signal: ctx.signal },
      minimaxCreatedSchema,
      'a created task',
    );
    return tasks.created(created.task_id, 'a created task without a usable task_id');
  }

  async status(ref: OperationRef, ctx: { signal?: AbortSignal }): Promise<VideoStatus> {
    const id = tasks.decode(ref);
    const q = await this.http.json(
      { method: 'GET', path: '/v1/query/video_generation', query: { task_id: id }, signal: ctx.signal },
      minimaxQuerySchema,
      'a task query',
    );
    // A failed task reports why in base_resp; only a query that itself failed throws.
    if (q.status !== 'Fail' && q.base_resp?.status_code) {
      if (q.base_resp.status_code === UNKNOWN_TASK) throw tasks.notFound(id);
      throw minimaxBaseRespError(q.base_resp, { status: 200, headers: {} });
    }
    return mapMiniMaxQuery(q, (fileId) => this.open(fileId));
  }

  private async open(fileId: string): Promise<NodeJS.ReadableStream> {
    const r = await this.call({ method: 'GET', path: '/v1/files/retrieve', query: { file_id: fileId } }, minimaxFileSchema, 'a file');
    const url = r.file?.download_url;
    if (!url) throw malformedUpstream('a file without a download_url');
    return openDownload(this.http)(url);
  }

  /** A JSON call whose `base_resp` must say 0 (MiniMax answers most failures with HTTP 200). */
  private async call<T extends { base_resp?: MiniMaxBaseResp }>(call: UpstreamCall, schema: UpstreamSchema<T>, what: string): Promise<T> {
    const res = await this.http.request(call);
    const body = await res.json(schema, what);
    if (body.base_resp?.status_code)
      throw minimaxBaseRespError(body.base_resp, { status: res.status, headers: res.headers, requestId: res.requestId });
    return body;
  }
}
