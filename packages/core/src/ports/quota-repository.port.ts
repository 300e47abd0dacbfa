import type { VideoTask } from '../video-task';

export interface AccountQuota {
  accountId: string;
  /** credits the account may use; null = unlimited */
  limit: number | null;
  used: number;
}

export interface CreditRefs {
  requestId?: string;
  taskId?: string;
}

/** Credits per account. Every write is atomic; task charges and refunds are compare-and-set on the task's billing state. */
export interface QuotaRepository {
  get(accountId: string): Promise<AccountQuota>;
  setLimit(accountId: string, limit: number | null): Promise<AccountQuota>;
  /** Adds to the account's used credits (post-paid text and images). */
  charge(accountId: string, amount: number, reason: string, refs: CreditRefs): Promise<void>;
  /**
   * Adds `amount` only if the account stays within its limit, in one conditional write (no read-then-write
   * window across instances). False, and nothing written, when it would not.
   */
  reserve(accountId: string, amount: number, reason: string, refs: CreditRefs): Promise<boolean>;
  /** Charges a task once: billing none → charged. False when it was already charged. */
  chargeTask(taskId: string, accountId: string, amount: number): Promise<boolean>;
  /** Recovery audit: tasks of the given (priced) models that were never charged. */
  unbilledTasks(models: string[], limit: number): Promise<VideoTask[]>;
  /** Recovery audit: tasks without their creation usage row, with the credits billed for each. */
  tasksWithoutUsageRow(limit: number): Promise<Array<{ task: VideoTask; credits: number }>>;
  /** Refunds one task when it is charged and ended failed, cancelled or expired (charged → refunded); null otherwise. */
  refundTask(taskId: string): Promise<{ taskId: string; accountId: string; amount: number } | null>;
  /** Refunds every charged task that ended failed, cancelled or expired, once each (charged → refunded). */
  refundUnsuccessfulTasks(limit: number): Promise<Array<{ taskId: string; accountId: string; amount: number }>>;
}
