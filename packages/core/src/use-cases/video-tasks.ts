/**
 * The video task use case behind every video wire format: limits, the active-task cap,
 * Idempotency-Key, ownership and content. Pure orchestration over ports; the worker
 * (video-worker.ts) does the rendering side.
 */
import { newId, type Principal } from '../auth';
import { seesTask, taskOwnerFilter } from '../task-scope';
import { transitionTask } from '../task-transitions';
import type { ModelCatalogue, ModelSpec } from '../catalogue';
import { GatewayError, invalid, toGatewayError } from '../errors';
import { mediaTypeOfKey, type ContentStore } from '../ports/content-store.port';
import type { NewVideoTask, TaskRepository } from '../ports/task-repository.port';
import type { UsageLog, UsageRow } from '../ports/usage-log.port';
import { videoCost } from '../pricing';
import { VIDEO_DEFAULTS, validateVideoRequest, type VideoRequest } from '../video-limits';
import { quotaExhaustedError, type Billing } from './billing';
import { isTerminal, type VideoTask } from '../video-task';
import { resolveModel } from './resolve-model';
import { DeploymentSelector } from './deployment-selection';
import { cancelUpstream, videoTarget, type VideoProviderLookup } from './video-target';
import { checkWebhookUrl, type WebhookUrlRule } from '../webhooks/webhook-url';
import { usageVideoOf } from './video-delivery-billing';
import type {
  CreateVideoTaskInput,
  ListVideoTasksQuery,
  RemixVideoTaskInput,
  VideoContent,
  VideoTaskService,
} from './video-tasks.contract';

/** How long an Idempotency-Key keeps returning the original task. */
export const IDEMPOTENCY_WINDOW_SECONDS = 24 * 3600;

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
}

/** Task ids are lowercase letters and digits only (the @google/genai SDK keeps only [a-z0-9] of a file id). */
export const newTaskId = (): string => newId('task');

export function taskNotFound(id: string): GatewayError {
  return new GatewayError('not_found', `No video task with id ${JSON.stringify(id.slice(0, 100))} exists for this API key's account.`, {
    code: 'task_not_found',
  });
}

export class VideoTasks implements VideoTaskService {
  private readonly now: () => number;
  private readonly selector: DeploymentSelector;

  constructor(private readonly deps: VideoTasksDeps) {
    this.now = deps.now ?? Date.now;
    this.selector = deps.selector ?? new DeploymentSelector({ now: deps.now });
  }

  create(input: CreateVideoTaskInput): Promise<{ task: VideoTask; replayed: boolean }> {
    return this.admitTask(input);
  }

  async remix(input: RemixVideoTaskInput): Promise<{ task: VideoTask; replayed: boolean }> {
    const source = await this.deps.tasks.findForAccount(input.principal.accountId, input.sourceId);
    if (!source || !seesTask(input.principal, source)) throw taskNotFound(input.sourceId);
    if (source.status !== 'succeeded') {
      throw new GatewayError('conflict', `Video ${source.id} is ${source.status}; only a completed video can be remixed.`, {
        code: 'remix_source_not_completed',
      });
    }
    const r = source.request;
    return this.admitTask(
      {
        principal: input.principal,
        modelId: source.model,
        format: input.format,
        requestId: input.requestId,
        idempotencyKey: input.idempotencyKey,
        // `adaptive` followed the source's first frame; the remix has none, so it takes the ratio that was delivered.
        draft: {
          prompt: input.prompt,
          durationSeconds: r.durationSeconds,
          resolution: r.resolution,
          generateAudio: r.generateAudio,
          fps: r.fps,
          aspectRatio: r.aspectRatio === 'adaptive' ? (source.delivery?.ratio ?? '16:9') : r.aspectRatio,
        },
      },
      source,
    );
  }

  /** Admission: the request checked against the model and the chosen upstream, then one atomic step in the store. */
  private async admitTask(input: CreateVideoTaskInput, remixOf?: VideoTask): Promise<{ task: VideoTask; replayed: boolean }> {
    const model = resolveModel(this.deps.catalogue, input.principal, input.modelId, 'video');
    const started = this.now();
    let provider: string | null = null;
    try {
      const plan = await this.plan(input, model, remixOf);
      provider = plan.target.provider;
      return await this.admit(input, model, plan, started);
    } catch (e) {
      const err = toGatewayError(e);
      this.recordRefusal(input, { model, err, provider, started });
      throw err;
    }
  }

  /** What will run where, at what price: every refusal a request can get before anything is written. */
  private async plan(input: CreateVideoTaskInput, model: ModelSpec, remixOf?: VideoTask): Promise<AdmissionPlan> {
    const p = input.principal;
    let request = validateVideoRequest(model, input.draft);
    const callbackUrl =
      input.callbackUrl === undefined
        ? null
        : checkWebhookUrl(input.callbackUrl, this.deps.webhookUrlRule ?? { allowedHosts: [] }, 'callback_url').toString();
    // its deliveries must be signable: refused now (400), not failed later
    if (callbackUrl) await this.deps.callbackSecret?.(p.accountId);
    const target = videoTarget(model, this.deps.providers, this.selector);
    if (remixOf) request = { ...request, remixOf: remixSource(model, target, remixOf) };
    // What the chosen upstream cannot do is a 400 now, not a failed task later.
    target.port.check?.({ ...request, upstreamModel: target.upstreamModel });
    const cost = videoCost(model, request.resolution, request.durationSeconds);
    // Nothing to reserve: still refuse an account that has nothing left.
    if (this.deps.billing && cost <= 0) await this.deps.billing.precheck(p);
    return { request, target, cost, callbackUrl };
  }

  private async admit(
    input: CreateVideoTaskInput,
    model: ModelSpec,
    { request, target, cost, callbackUrl }: AdmissionPlan,
    started: number,
  ): Promise<{ task: VideoTask; replayed: boolean }> {
    const p = input.principal;
    const billing = this.deps.billing;
    const task: NewVideoTask = {
      id: (this.deps.newTaskId ?? newTaskId)(),
      accountId: p.accountId,
      keyId: p.keyId,
      model: model.id,
      format: input.format,
      request,
      deployment: { provider: target.provider, upstreamModel: target.upstreamModel },
      priority: input.priority ?? 0,
      serviceTier: input.serviceTier ?? 'default',
      executionExpiresAfter: checkExpiresAfter(input.executionExpiresAfter),
      idempotencyKey: checkIdempotencyKey(input.idempotencyKey),
      callbackUrl,
      createdAt: new Date(started),
    };
    // Written with the task, before the client hears the id, so a client whose connection dropped finds it in the log.
    const usage = this.queuedRow(input, task, cost, started);
    const max = this.deps.limits.maxActiveTasksPerAccount;
    // Cap, idempotency, credit reservation, insert and usage row: one atomic step in the store.
    const admission = await this.deps.tasks.admit(task, {
      maxActive: max,
      idempotentSince: new Date(started - IDEMPOTENCY_WINDOW_SECONDS * 1000),
      price: billing ? cost : 0,
      usage,
    });
    if (admission.outcome === 'capped') throw tooManyActiveTasks(admission.active, max, this.deps.capRetryAfterSeconds ?? 10);
    if (admission.outcome === 'unaffordable') throw quotaExhaustedError(admission, cost, admission.scope);
    // A replay is not new work: the original creation already wrote its usage row.
    if (admission.outcome === 'replayed') return { task: admission.task, replayed: true };
    billing?.forget(p.accountId);
    this.deps.usage.written?.(usage);
    return { task: admission.task, replayed: false };
  }

  private queuedRow(input: CreateVideoTaskInput, task: NewVideoTask, cost: number, started: number): UsageRow {
    return {
      requestId: input.requestId,
      accountId: task.accountId,
      keyId: task.keyId,
      model: task.model,
      format: input.format,
      status: 'queued',
      httpStatus: 200,
      taskId: task.id,
      idempotencyKey: task.idempotencyKey,
      provider: task.deployment.provider,
      latencyMs: this.now() - started,
      attempts: 1,
      credits: cost,
      video: usageVideoOf({ request: task.request, delivery: null }),
    };
  }

  private recordRefusal(
    input: CreateVideoTaskInput,
    { model, err, provider, started }: { model: ModelSpec; err: GatewayError; provider: string | null; started: number },
  ) {
    this.deps.usage.record({
      requestId: input.requestId,
      accountId: input.principal.accountId,
      keyId: input.principal.keyId,
      model: model.id,
      format: input.format,
      status: 'error',
      httpStatus: err.status,
      errorCode: err.code,
      provider,
      latencyMs: this.now() - started,
      idempotencyKey: input.idempotencyKey ?? null,
    });
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

function checkExpiresAfter(v: number | undefined): number {
  if (v === undefined) return VIDEO_DEFAULTS.executionExpiresAfter;
  const max = VIDEO_DEFAULTS.retentionSeconds;
  if (!Number.isInteger(v) || v < 1 || v > max) {
    throw invalid(
      'invalid_execution_expires_after',
      `execution_expires_after must be a whole number of seconds from 1 to ${max}; got ${v}.`,
      'execution_expires_after',
    );
  }
  return v;
}

function checkIdempotencyKey(v: string | undefined): string | null {
  if (v === undefined) return null;
  if (!/^[\x20-\x7e]{1,255}$/.test(v)) {
    throw invalid('invalid_idempotency_key', 'Idempotency-Key must be 1 to 255 printable ASCII characters.', 'Idempotency-Key');
  }
  return v;
}

interface AdmissionPlan {
  request: VideoRequest;
  target: ReturnType<typeof videoTarget>;
  cost: number;
  callbackUrl: string | null;
}

/** A remix runs where its source was rendered, on an upstream that remixes. */
function remixSource(model: ModelSpec, target: ReturnType<typeof videoTarget>, source: VideoTask): VideoRequest['remixOf'] {
  if (!target.port.remix)
    throw invalid('unsupported_video_operation', `The upstream of ${model.id} cannot remix a video; create a new video instead.`);
  if (source.upstream?.provider !== target.provider) {
    throw invalid(
      'remix_source_unavailable',
      `Video ${source.id} was not rendered by the upstream that now serves ${model.id}, so it cannot be remixed there.`,
    );
  }
  return { taskId: source.id, operation: source.upstream.operation };
}

function tooManyActiveTasks(active: number, max: number, retryAfterSeconds: number): GatewayError {
  return new GatewayError(
    'rate_limited',
    `This account already has ${active} active (queued or running) video tasks; the limit is ${max}. Wait for one to finish, then retry.`,
    { code: 'too_many_active_tasks', retryAfterSeconds },
  );
}
