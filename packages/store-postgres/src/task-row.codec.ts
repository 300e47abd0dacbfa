import type { ClaimedTask, TaskPatch, TaskRequest, TaskStatusPatch, VideoImageInfo, VideoRequest, VideoTask } from '@gateway/core';
import { columnsOf, date, json } from './row-values';

type Images = Pick<VideoRequest, 'firstFrame' | 'lastFrame' | 'referenceImages'>;
/** The input images' bytes as video_task_inputs keeps them (base64 in jsonb), by the request field they belong to. */
type StoredImages = { firstFrame?: string; lastFrame?: string; referenceImages?: string[] };

const b64 = (i: { data: Uint8Array }) => Buffer.from(i.data).toString('base64');

/** The bytes of a request's input images, apart from the request; null when it has none. */
export function encodeImages(r: Images): StoredImages | null {
  const out: StoredImages = {};
  if (r.firstFrame) out.firstFrame = b64(r.firstFrame);
  if (r.lastFrame) out.lastFrame = b64(r.lastFrame);
  if (r.referenceImages?.length) out.referenceImages = r.referenceImages.map(b64);
  return Object.keys(out).length ? out : null;
}

/** A task's request with its images' bytes put back (what a submission sends). */
export function joinRequest(request: TaskRequest, images: StoredImages | null): VideoRequest {
  const bytes = (info: VideoImageInfo | undefined, data: string | undefined) =>
    info && data !== undefined ? { ...info, data: Buffer.from(data, 'base64') } : undefined;
  const { firstFrame, lastFrame, referenceImages, ...rest } = request;
  const out: VideoRequest = { ...rest };
  if (firstFrame) out.firstFrame = bytes(firstFrame, images?.firstFrame);
  if (lastFrame) out.lastFrame = bytes(lastFrame, images?.lastFrame);
  if (referenceImages) out.referenceImages = referenceImages.map((i, n) => bytes(i, images?.referenceImages?.[n])!);
  return out;
}

export function rowToTask(r: Record<string, any>): VideoTask {
  return {
    ...columnsOf(r, ['id', 'accountId', 'keyId', 'model', 'format', 'status', 'serviceTier']),
    progress: Number(r.progress),
    request: json<TaskRequest>(r.request)!,
    priority: Number(r.priority),
    executionExpiresAfter: Number(r.execution_expires_after),
    error: json(r.error),
    delivery: json(r.delivery),
    deployment: json(r.deployment),
    upstream: json(r.upstream),
    idempotencyKey: r.idempotency_key ?? null,
    callbackUrl: r.callback_url ?? null,
    createdAt: new Date(r.created_at),
    updatedAt: new Date(r.updated_at),
    completedAt: date(r.completed_at),
  };
}

/** The columns rowToClaim reads: a claim returns these, not the billing or scheduling columns the worker never reads. */
export const CLAIM_COLUMNS = [
  'id',
  'account_id',
  'key_id',
  'model',
  'format',
  'status',
  'progress',
  'request',
  'priority',
  'service_tier',
  'execution_expires_after',
  'error',
  'delivery',
  'deployment',
  'upstream',
  'idempotency_key',
  'callback_url',
  'created_at',
  'updated_at',
  'completed_at',
  'lease_owner',
  'lease_until',
  'poll_attempts',
  'submit_started_at',
] as const;

export function rowToClaim(r: Record<string, any>): ClaimedTask {
  return {
    task: rowToTask(r),
    leaseOwner: r.lease_owner,
    leaseUntil: new Date(r.lease_until),
    pollAttempts: Number(r.poll_attempts),
    submitStartedAt: date(r.submit_started_at),
  };
}

/** The columns a status change (the core's transitionTask) writes. */
export function statusPatchToRow({ status, updatedAt, endsLease, ...patch }: TaskStatusPatch): Record<string, unknown> {
  const row: Record<string, unknown> = { ...patchToRow(patch), status, updated_at: updatedAt };
  if (endsLease) Object.assign(row, { lease_owner: null, lease_until: null });
  return row;
}

function patchToRow(patch: TaskPatch): Record<string, unknown> {
  const row: Record<string, unknown> = {};
  if (patch.progress !== undefined) row.progress = patch.progress;
  if (patch.error !== undefined) row.error = patch.error === null ? null : JSON.stringify(patch.error);
  if (patch.delivery !== undefined) row.delivery = patch.delivery === null ? null : JSON.stringify(patch.delivery);
  if (patch.upstream !== undefined) row.upstream = patch.upstream === null ? null : JSON.stringify(patch.upstream);
  if (patch.completedAt !== undefined) row.completed_at = patch.completedAt;
  return row;
}

/**
 * A task row as the outbox keeps it (the task at its status change), without its lease. The request holds its
 * images' descriptions only: their bytes live in video_task_inputs (migration 022).
 */
export function rowSnapshot(r: Record<string, any>): Record<string, unknown> {
  const { lease_owner: _o, lease_until: _u, ...rest } = r;
  return { ...rest, request: json(r.request) };
}
