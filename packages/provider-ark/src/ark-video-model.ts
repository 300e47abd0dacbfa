import { type OperationRef, type VideoModelPort, type VideoRequest, type VideoStatus } from '@gateway/provider-kit';
import { openDownload, upstreamTaskIds, type UpstreamClient } from '@gateway/provider-kit';
import { ARK_TASKS_PATH, arkCreatedSchema, arkTaskListSchema, arkTaskSchema, type ArkTask } from './ark-api';
import { BatchedTaskReads } from './batched-task-reads';
import { checkArkRequest, convertToArkTask } from './convert-to-ark-task';
import { mapArkTask } from './map-ark-task';

const tasks = upstreamTaskIds('Ark', 'no longer knows task', /^[A-Za-z0-9_.-]{1,128}$/);

export interface ArkVideoOptions {
  /** read statuses through the list endpoint, up to maxBatch ids a call (default on) */
  batchPolling?: boolean;
  maxBatch?: number;
}

/**
 * Seedance through Ark's task API. Exactly-once: Ark has no idempotency key and its task objects do not
 * echo the request, so a lost create cannot be matched safely; idempotentStart stays off and the worker
 * fails such a task with submission_unknown instead of paying twice (docs/providers/ark.md).
 */
export class ArkVideoModel implements VideoModelPort {
  private readonly batch: BatchedTaskReads<ArkTask> | undefined;

  constructor(
    private readonly http: UpstreamClient,
    opts: ArkVideoOptions = {},
  ) {
    if (opts.batchPolling !== false) {
      this.batch = new BatchedTaskReads<ArkTask>(
        { readMany: (ids) => this.readMany(ids), readOne: (id, s) => this.readOne(id, s) },
        opts.maxBatch ?? 100,
      );
    }
  }

  check(req: VideoRequest): void {
    checkArkRequest(req);
  }

  async start(req: VideoRequest & { upstreamModel: string }, ctx: { signal?: AbortSignal }): Promise<OperationRef> {
    const created = await this.http.json(
      { method: 'POST', path: ARK_TASKS_PATH, json: convertToArkTask(req), signal: ctx.signal },
      arkCreatedSchema,
      'a created task',
    );
    return tasks.created(created?.id, 'a created task without a usable id');
  }

  async status(ref: OperationRef, ctx: { signal?: AbortSignal }): Promise<VideoStatus> {
    tasks.decode(ref);
    const task = this.batch ? await this.batch.read(ref, ctx.signal) : await this.readOne(ref, ctx.signal);
    return mapArkTask(task, openDownload(this.http));
  }

  /** Queued tasks become cancelled upstream; Ark refuses running ones (then the gateway stops polling; billing is Ark's). */
  async cancel(ref: OperationRef): Promise<void> {
    if (!tasks.valid(ref)) return;
    (await this.http.request({ method: 'DELETE', path: `${ARK_TASKS_PATH}/${ref}` })).close();
  }

  private readOne(id: string, signal?: AbortSignal): Promise<ArkTask> {
    return tasks.read(id, this.http.json({ method: 'GET', path: `${ARK_TASKS_PATH}/${id}`, signal }, arkTaskSchema, 'a task'));
  }

  private async readMany(ids: string[]): Promise<Map<string, ArkTask>> {
    const list = await this.http.json(
      {
        method: 'GET',
        path: ARK_TASKS_PATH,
        query: { page_num: '1', page_size: String(Math.max(ids.length, 1)), 'filter.task_ids': ids },
      },
      arkTaskListSchema,
      'a task list',
    );
    const wanted = new Set(ids);
    return new Map((list.items ?? []).filter((t) => t.id && wanted.has(t.id)).map((t) => [t.id!, t]));
  }
}
