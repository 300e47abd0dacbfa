/**
 * The recovery audit run at start-up: after a crash at any instant, every task that exists is charged exactly
 * once and has its usage row. Admission writes both in one transaction, so a gap means a crash inside older
 * code (or a store restored from a backup); the audit repairs it and reports what it did.
 */
import type { ModelCatalogue } from '../catalogue';
import { videoCost } from '../pricing';
import type { QuotaRepository } from '../ports/quota-repository.port';
import type { UsageLog } from '../ports/usage-log.port';
import { usageVideoOf } from './video-delivery-billing';

export interface TaskBooksAuditResult {
  /** tasks of priced models that had no charge and were charged now */
  charged: string[];
  /** tasks that had no creation usage row and got one now */
  usageRows: string[];
  /** tasks that could not be priced (their model is gone from the config): reported, not charged */
  unpriced: string[];
}

const BATCH = 100;

export async function auditTaskBooks(deps: {
  quotas: QuotaRepository;
  usage: UsageLog;
  catalogue: ModelCatalogue;
}): Promise<TaskBooksAuditResult> {
  const out: TaskBooksAuditResult = { charged: [], usageRows: [], unpriced: [] };
  const priced = deps.catalogue.all().filter((m) => m.kind === 'video' && m.pricing);
  for (const task of await deps.quotas.unbilledTasks(
    priced.map((m) => m.id),
    BATCH,
  )) {
    const model = deps.catalogue.get(task.model);
    if (!model) {
      out.unpriced.push(task.id);
      continue;
    }
    const amount = videoCost(model, task.request.resolution, task.request.durationSeconds);
    // Compare-and-set on the task's billing state: a concurrent audit on another instance cannot charge it twice.
    if (await deps.quotas.chargeTask(task.id, task.accountId, amount)) out.charged.push(task.id);
  }
  for (const { task, credits } of await deps.quotas.tasksWithoutUsageRow(BATCH)) {
    deps.usage.record({
      requestId: `audit_${task.id}`,
      accountId: task.accountId,
      keyId: task.keyId,
      model: task.model,
      format: task.format,
      status: 'queued',
      httpStatus: 200,
      taskId: task.id,
      idempotencyKey: task.idempotencyKey,
      provider: task.deployment?.provider ?? task.upstream?.provider ?? null,
      credits,
      video: usageVideoOf({ request: task.request, delivery: null }),
      createdAt: task.createdAt,
    });
    out.usageRows.push(task.id);
  }
  await deps.usage.flush();
  return out;
}
