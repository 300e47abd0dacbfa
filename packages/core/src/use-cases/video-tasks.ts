/**
 * The video task use case behind every video wire format: creation (video-task-admission.ts: limits, the active-task
 * cap, Idempotency-Key), then ownership, listing, cancellation and content. Pure orchestration over ports; the worker
 * (video-worker.ts) does the rendering side.
 */
import type { Guardrails } from './guardrails';
import type { Principal } from '../auth';
import type { ModelCatalogue } from '../catalogue';
import { GatewayError, invalid } from '../errors';
import { mediaTypeOfKey, type ContentStore } from '../ports/content-store.port';
import type { TaskRepository } from '../ports/task-repository.port';
import type { UsageLog } from '../ports/usage-log.port';
import { seesTask, taskOwnerFilter } from '../task-scope';
import { transitionTask } from '../task-transitions';
import { isTerminal, type VideoTask } from '../video-task';
import type { WebhookUrlRule } from '../webhooks/webhook-url';
import type { Billing } from './billing';
import { DeploymentSelector } from './deployment-selection';
import { cancelUpstream, type VideoProviderLookup } from './video-target';
import { VideoTaskAdmission } from './video-task-admission';
import type {
  CreateVideoTaskInput,
  ListVideoTasksQuery,
  RemixVideoTaskInput,
  VideoContent,
  VideoTaskService,
} from './video-tasks.contract';

export interface VideoTasksDeps {
  catalogue: ModelCatalogue;
  tasks: TaskRepository;
  content: ContentStore;
  usage: UsageLog;
  providers: VideoProviderLookup;
  limits: { maxActiveTasksPerAccount: number };
  now?: () => number;
  newTaskId?: () => string;
  /** Retry-After sent with the active-task cap refusal */
  capRetryAfterSeconds?: number;
  /** credit quotas: reserved in the admission step, refunded (by the worker) if the task does not succeed */
  billing?: Billing;
  /** the deployment-selection policy (shared with the worker, so both see the same circuits) */
  selector?: DeploymentSelector;
  /** where a callback_url may point (WEBHOOK_ALLOWED_HOSTS); public https only when absent */
  webhookUrlRule?: WebhookUrlRule;
  /** the account's callback_url secret, created on first use (a task with a callback_url); throws when none can be kept */
  callbackSecret?: (accountId: string) => Promise<unknown>;
  /** the caller's input guardrails, run on the prompt at admission (docs/guardrails.md) */
  guardrails?: Guardrails;
}

export function taskNotFound(id: string): GatewayError {
  return new GatewayError('not_found', `No video task with id ${JSON.stringify(id.slice(0, 100))} exists for this API key's account.`, {
    code: 'task_not_found',
  });
}

export class VideoTasks implements VideoTaskService {
  private readonly now: () => number;
  private readonly admission: VideoTaskAdmission;

  constructor(private readonly deps: VideoTasksDeps) {
    this.now = deps.now ?? Date.now;
    this.admission = new VideoTaskAdmission(deps, this.now, deps.selector ?? new DeploymentSelector({ now: deps.now }));
  }

  create(input: CreateVideoTaskInput): Promise<{ task: VideoTask; replayed: boolean }> {
    return this.admission.create(input);
  }

  async remix(input: RemixVideoTaskInput): Promise<{ task: VideoTask; replayed: boolean }> {
    return this.admission.remix(input, await this.get(input.principal, input.sourceId));
  }

  async get(p: Principal, id: string): Promise<VideoTask> {
    const task = await this.deps.tasks.findForAccount(p.accountId, id);
    if (!task || !seesTask(p, task)) throw taskNotFound(id);
    return task;
  }

  async list(p: Principal, q: ListVideoTasksQuery): Promise<{ items: VideoTask[]; hasMore: boolean; total: number }> {
    if (!Number.isInteger(q.limit) || q.limit < 1 || q.limit > 1000)
      throw invalid('invalid_limit', `limit must be a whole number from 1 to 1000; got ${q.limit}.`, 'limit');
    if (q.offset !== undefined && (!Number.isInteger(q.offset) || q.offset < 0))
      throw invalid('invalid_offset', 'The page offset must be a whole number of at least 0.', 'offset');
    let after: { createdAt: Date; id: string } | undefined;
    if (q.after !== undefined) {
      const cursor = await this.deps.tasks.findForAccount(p.accountId, q.after);
      if (!cursor || !seesTask(p, cursor))
        throw invalid('invalid_cursor', `after ${JSON.stringify(q.after.slice(0, 100))} is not a task of this account.`, 'after');
      after = { createdAt: cursor.createdAt, id: cursor.id };
    }
    return this.deps.tasks.list(p.accountId, {
      limit: q.limit,
      order: q.order,
      after,
      offset: q.offset,
      status: q.status,
      model: q.model,
      ids: q.ids,
      keyId: taskOwnerFilter(p),
    });
  }

  async cancelOrDelete(p: Principal, id: string): Promise<{ outcome: 'cancelled' | 'deleted'; task: VideoTask }> {
    let task = await this.get(p, id);
    if (task.status === 'queued') {
      const error = { code: 'cancelled', message: 'The task was cancelled before it started running.' };
      const cancelled = await this.deps.tasks.applyTransition(
        id,
        transitionTask(task, { to: 'cancelled', patch: { error } }, new Date(this.now())),
      );
      if (cancelled) {
        // The refund follows from the worker's housekeeping sweep, not from this request.
        cancelUpstream(this.deps.providers, cancelled);
        return { outcome: 'cancelled', task: cancelled };
      }
      task = await this.get(p, id); // lost the race: the worker moved it on
    }
    if (!isTerminal(task.status)) {
      throw new GatewayError('conflict', `Task ${id} is ${task.status} and can no longer be cancelled; delete it once it has finished.`, {
        code: 'task_running',
      });
    }
    // a refund or a delivery settlement still owed by this task is paid before the record (and its billing state) goes
    await this.deps.billing?.refundTask(task.id);
    if (task.status === 'succeeded') await this.deps.billing?.settleDelivered(this.deps.catalogue, { taskId: task.id });
    const deleted = await this.deps.tasks.deleteFinished(p.accountId, id);
    if (!deleted) throw taskNotFound(id);
    await deleteContent(this.deps.content, deleted);
    return { outcome: 'deleted', task: deleted };
  }

  async content(p: Principal, id: string, variant: 'video' | 'thumbnail'): Promise<VideoContent> {
    return taskContent(this.deps.content, await this.get(p, id), variant);
  }
}

/** The stored MP4 (or thumbnail) of a succeeded task: a conflict while it has none, not_found when it is gone. */
export async function taskContent(content: ContentStore, task: VideoTask, variant: 'video' | 'thumbnail'): Promise<VideoContent> {
  const id = task.id;
  if (task.status !== 'succeeded' || !task.delivery) {
    const ready = isTerminal(task.status) ? 'has no video' : 'has no video yet';
    throw new GatewayError('conflict', `Task ${id} is ${task.status} and ${ready}; content is available once it has succeeded.`, {
      code: isTerminal(task.status) ? 'video_not_available' : 'video_not_ready',
    });
  }
  const key = variant === 'video' ? task.delivery.contentKey : task.delivery.thumbnailKey;
  const stat = key ? await content.stat(key) : null;
  if (!key || !stat) {
    throw new GatewayError('not_found', `Task ${id} has no ${variant} content (it may have been deleted).`, {
      code: 'content_not_found',
    });
  }
  return { mediaType: mediaTypeOfKey(key), size: stat.size, open: (range) => content.open(key, range) };
}

/** Deletes a task's video and thumbnail; missing objects are fine. */
export async function deleteContent(content: ContentStore, task: VideoTask): Promise<void> {
  const keys = [task.delivery?.contentKey, task.delivery?.thumbnailKey].filter((k): k is string => Boolean(k));
  await Promise.all(keys.map((k) => content.delete(k)));
}
