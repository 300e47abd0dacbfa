import type { ClaimedTask, TaskPatch, VideoRequest, VideoTask } from '@gateway/core';

/** Image bytes travel through jsonb as base64. */
export function encodeRequest(r: VideoRequest): unknown {
  const img = (i?: { data: Uint8Array }) => (i ? { ...i, data: Buffer.from(i.data).toString('base64') } : undefined);
  return { ...r, firstFrame: img(r.firstFrame), lastFrame: img(r.lastFrame), referenceImages: r.referenceImages?.map(img) };
}

function decodeRequest(raw: unknown): VideoRequest {
  const r = (typeof raw === 'string' ? JSON.parse(raw) : raw) as VideoRequest & Record<string, unknown>;
  const img = <T extends { data: unknown }>(i?: T) => (i ? { ...i, data: Buffer.from(i.data as string, 'base64') } : undefined);
  return {
    ...r,
    firstFrame: img(r.firstFrame),
    lastFrame: img(r.lastFrame),
    referenceImages: r.referenceImages?.map((i) => img(i)!),
  } as VideoRequest;
}

const json = <T>(v: unknown): T | null => (v === null || v === undefined ? null : typeof v === 'string' ? (JSON.parse(v) as T) : (v as T));
const date = (v: unknown): Date | null => (v === null || v === undefined ? null : new Date(v as string));

export function rowToTask(r: Record<string, any>): VideoTask {
  return {
    id: r.id,
    accountId: r.account_id,
    keyId: r.key_id,
    model: r.model,
    format: r.format,
    status: r.status,
    progress: Number(r.progress),
    request: decodeRequest(r.request),
    priority: Number(r.priority),
    serviceTier: r.service_tier,
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

export function rowToClaim(r: Record<string, any>): ClaimedTask {
  return {
    task: rowToTask(r),
    leaseOwner: r.lease_owner,
    leaseUntil: new Date(r.lease_until),
    pollAttempts: Number(r.poll_attempts),
    submitStartedAt: date(r.submit_started_at),
  };
}

export function patchToRow(patch: TaskPatch): Record<string, unknown> {
  const row: Record<string, unknown> = {};
  if (patch.progress !== undefined) row.progress = patch.progress;
  if (patch.error !== undefined) row.error = patch.error === null ? null : JSON.stringify(patch.error);
  if (patch.delivery !== undefined) row.delivery = patch.delivery === null ? null : JSON.stringify(patch.delivery);
  if (patch.upstream !== undefined) row.upstream = patch.upstream === null ? null : JSON.stringify(patch.upstream);
  if (patch.completedAt !== undefined) row.completed_at = patch.completedAt;
  return row;
}

/**
 * A task row as the outbox keeps it (the task at its status change): JSON, without the request's images, which
 * no event or task object shows and which would make every outbox row as large as the upload.
 */
export function rowSnapshot(r: Record<string, any>): Record<string, unknown> {
  const req = (typeof r.request === 'string' ? JSON.parse(r.request) : r.request) as Record<string, unknown>;
  const { firstFrame: _f, lastFrame: _l, referenceImages: _r, ...request } = req ?? {};
  const { lease_owner: _o, lease_until: _u, ...rest } = r;
  return { ...rest, request };
}
