import type { BudgetPeriod } from '../budget-period';
import type { VideoTask } from '../video-task';
import type { UsageRow } from './usage-log.port';

/** A succeeded task whose charge is not yet settled on what it delivered, with what admission reserved for it. */
export interface UnsettledTask {
  task: VideoTask;
  reserved: number;
}

/** How one succeeded task settles: what it costs in the end, and its usage row (requested and delivered). */
export interface TaskSettlementWrite {
  /** what admission reserved: the compare-and-set checks it is still the task's billed amount */
  reserved: number;
  /** the final charge (≤ reserved); reserved − charge goes back to the account and the key's budget */
  charge: number;
  usage: UsageRow;
}

/** A credit quota: the account's, or a key's (its budget). */
export interface CreditQuota {
  /** credits that may be used per period; null = unlimited */
  limit: number | null;
  /** credits used in the current period (a lifetime total when period is null) */
  used: number;
  period: BudgetPeriod | null;
}

export interface AccountQuota extends CreditQuota {
  accountId: string;
}

export interface KeyQuota extends CreditQuota {
  keyId: string;
}

/** Who pays: the account, and the key's budget too when the key has one. */
export interface Payer {
  accountId: string;
  keyId?: string;
}

export interface CreditRefs {
  requestId?: string;
  taskId?: string;
  /** the usage row the charge belongs to: a charge naming one is applied at most once (replays, recovery) */
  usageRowId?: string;
}

/**
 * Credits per account and per key. Every write is atomic; task charges and refunds are compare-and-set on the task's
 * billing state. Used credits start again from zero at each period boundary (UTC), by the store's clock option.
 */
export interface QuotaRepository {
  get(accountId: string): Promise<AccountQuota>;
  /** period undefined keeps the current one */
  setLimit(accountId: string, limit: number | null, period?: BudgetPeriod | null): Promise<AccountQuota>;
  /** A key without a budget: limit null, period null. */
  getKey(keyId: string): Promise<KeyQuota>;
  setKeyLimit(keyId: string, limit: number | null, period: BudgetPeriod | null): Promise<KeyQuota>;
  /** Adds to the payer's used credits (post-paid text and images; negative: a refund). */
  charge(payer: Payer, amount: number, reason: string, refs: CreditRefs): Promise<void>;
  /**
   * Adds `amount` only if the account and the key's budget both stay within their limits, in conditional writes in
   * one transaction (no read-then-write window across instances). False, and nothing written, when either would not.
   */
  reserve(payer: Payer, amount: number, reason: string, refs: CreditRefs): Promise<boolean>;
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
  /** Succeeded tasks not yet settled (billing none or charged), oldest first; only `taskId` when given. */
  unsettledTasks(limit: number, taskId?: string): Promise<UnsettledTask[]>;
  /**
   * Settles one succeeded task (none|charged → settled, compare-and-set): gives back reserved − charge, records the
   * final charge and writes the usage row, in one transaction. False when it was settled already (or changed).
   */
  settleTask(taskId: string, s: TaskSettlementWrite): Promise<boolean>;
}
