/**
 * Creating a video task, new or a remix: the request checked against the model and the chosen upstream, then the
 * cap, Idempotency-Key, credit reservation, task row and usage row in one atomic step of the store.
 */
import { newId } from '../auth';
import type { ModelSpec } from '../catalogue';
import { GatewayError, invalid, toGatewayError } from '../errors';
import type { NewVideoTask } from '../ports/task-repository.port';
import type { UsageRow } from '../ports/usage-log.port';
import { videoCost } from '../pricing';
import { VIDEO_DEFAULTS, validateVideoRequest, type VideoRequest } from '../video-limits';
import type { VideoTask } from '../video-task';
import { checkWebhookUrl } from '../webhooks/webhook-url';
import { quotaExhaustedError } from './billing';
import type { DeploymentSelector } from './deployment-selection';
import { resolveModel } from './resolve-model';
import { usageVideoOf } from './video-delivery-billing';
import { videoTarget } from './video-target';
import type { CreateVideoTaskInput, RemixVideoTaskInput } from './video-tasks.contract';
import type { VideoTasksDeps } from './video-tasks';

/** How long an Idempotency-Key keeps returning the original task. */
export const IDEMPOTENCY_WINDOW_SECONDS = 24 * 3600;

/** Task ids are lowercase letters and digits only (the @google/genai SDK keeps only [a-z0-9] of a file id). */
export const newTaskId = (): string => newId('task');

export class VideoTaskAdmission {
  constructor(
    private readonly deps: VideoTasksDeps,
    private readonly now: () => number,
    private readonly selector: DeploymentSelector,
  ) {}

  create(input: CreateVideoTaskInput): Promise<{ task: VideoTask; replayed: boolean }> {
    return this.admitTask(input);
  }

  /** A remix of a task the caller sees: only a completed one, re-rendered where it was rendered. */
  remix(input: RemixVideoTaskInput, source: VideoTask): Promise<{ task: VideoTask; replayed: boolean }> {
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
    if (this.deps.guardrails && request.prompt) {
      // masked, or refused (guardrail_blocked) before anything is written; the refusal's usage row says so
      const meta = { format: input.format, requestId: input.requestId, signal: new AbortController().signal };
      const guarded = await this.deps.guardrails.input(p, model.id, [request.prompt], meta);
      request = { ...request, prompt: guarded.texts[0] };
    }
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
