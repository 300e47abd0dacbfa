/**
 * Billing on what was delivered: each succeeded task's reservation is settled on its delivered duration and
 * resolution (core billing.ts, settleDeliveredVideo), the difference given back, with a usage row that shows
 * requested and delivered side by side. Run right after a task succeeds and swept by the worker's housekeeping, so a
 * crash between the two delays a settlement, never loses or doubles it (the store's compare-and-set).
 */
import type { ModelCatalogue } from '../catalogue';
import { settleDeliveredVideo, type VideoSettlement } from '../pricing';
import type { QuotaRepository } from '../ports/quota-repository.port';
import type { UsageRow, UsageVideo } from '../ports/usage-log.port';
import type { VideoTask } from '../video-task';

export interface SettledTask extends VideoSettlement {
  taskId: string;
  accountId: string;
  keyId: string;
}

/** What the task asked for and, once it has a delivery, what it got. */
export function usageVideoOf(task: Pick<VideoTask, 'request' | 'delivery'>): UsageVideo {
  const requested = { seconds: task.request.durationSeconds, resolution: task.request.resolution };
  const d = task.delivery;
  return { requested, delivered: d ? { seconds: d.durationSeconds, resolution: d.resolution } : null };
}

/** The settlement's usage row: status `succeeded`, credits the amount given back (negative, or 0), both shapes. */
export function settlementRow(task: VideoTask, s: VideoSettlement): UsageRow {
  return {
    requestId: `settle_${task.id}`,
    accountId: task.accountId,
    keyId: task.keyId,
    model: task.model,
    format: task.format,
    status: 'succeeded',
    httpStatus: 200,
    taskId: task.id,
    provider: task.upstream?.provider ?? task.deployment?.provider ?? null,
    credits: s.refund > 0 ? -s.refund : 0,
    video: usageVideoOf(task),
  };
}

/** Settles the unsettled succeeded tasks (or the one named), in batches of `limit`; returns what it settled. */
export async function settleDeliveredTasks(
  quotas: QuotaRepository,
  catalogue: ModelCatalogue,
  opts: { taskId?: string; limit?: number } = {},
): Promise<SettledTask[]> {
  const out: SettledTask[] = [];
  for (const { task, reserved } of await quotas.unsettledTasks(opts.limit ?? 100, opts.taskId)) {
    // A succeeded task always carries its delivery; one without is settled as requested (nothing to weigh).
    const delivered = task.delivery ?? task.request;
    const s = settleDeliveredVideo(catalogue.get(task.model), task.request, delivered, reserved);
    if (await quotas.settleTask(task.id, { reserved, charge: s.charge, usage: settlementRow(task, s) }))
      out.push({ ...s, taskId: task.id, accountId: task.accountId, keyId: task.keyId });
  }
  return out;
}
