import type { Principal } from '../auth';
import { GatewayError } from '../errors';
import type { AccountQuota, CreditRefs, QuotaRepository } from '../ports';

/**
 * The quota rule, once: check before upstream work, settle after; a video task is charged when it is accepted
 * and refunded (once) if it ends failed, cancelled or expired.
 */
export class Billing {
  private readonly cache = new Map<string, { at: number; quota: AccountQuota }>();

  /**
   * cacheMs: how long a quota read is reused by prechecks (charges made here drop it at once; charges made by other
   * instances show within cacheMs), so the hot path does not read the store on every request.
   */
  constructor(
    private readonly quotas: QuotaRepository,
    private readonly opts: { cacheMs?: number; now?: () => number } = {},
  ) {}

  private async quota(accountId: string): Promise<AccountQuota> {
    const now = (this.opts.now ?? Date.now)();
    const hit = this.cache.get(accountId);
    if (hit && now - hit.at < (this.opts.cacheMs ?? 1000)) return hit.quota;
    const quota = await this.quotas.get(accountId);
    if (this.cache.size > 100_000) this.cache.clear();
    this.cache.set(accountId, { at: now, quota });
    return quota;
  }

  /** Refuses work the account cannot pay for: used + estimate must stay within the limit. */
  async precheck(principal: Principal, estimate = 0): Promise<void> {
    const q = await this.quota(principal.accountId);
    if (q.limit === null) return;
    if (q.used + estimate > q.limit || (estimate === 0 && q.used >= q.limit)) throw quotaExhaustedError(q, estimate);
  }

  /**
   * Takes a price known before the call (images) in one conditional write, so parallel requests on any
   * number of instances never take more than the remaining credits. Nothing to take: the precheck alone.
   */
  async reserve(principal: Principal, amount: number, reason: string, refs: CreditRefs): Promise<void> {
    if (amount <= 0) return this.precheck(principal);
    const taken = await this.quotas.reserve(principal.accountId, amount, reason, refs);
    this.cache.delete(principal.accountId);
    if (!taken) throw quotaExhaustedError(await this.quotas.get(principal.accountId), amount);
  }

  /** Gives back the unused part of a reservation. */
  async refund(principal: Principal, amount: number, reason: string, refs: CreditRefs): Promise<void> {
    if (amount <= 0) return;
    await this.quotas.charge(principal.accountId, -amount, reason, refs);
    this.cache.delete(principal.accountId);
  }

  async settle(principal: Principal, amount: number, reason: string, refs: CreditRefs): Promise<void> {
    if (amount <= 0) return;
    await this.quotas.charge(principal.accountId, amount, reason, refs);
    this.cache.delete(principal.accountId);
  }

  /** Refunds one task if it is owed (charged, ended unsuccessfully): a compare-and-set, never twice. */
  async refundTask(taskId: string): Promise<void> {
    const refund = await this.quotas.refundTask(taskId);
    if (refund) this.cache.delete(refund.accountId);
  }

  /** Worker housekeeping: every refund owed, in batches. */
  async refundUnsuccessfulTasks(limit = 100) {
    const refunds = await this.quotas.refundUnsuccessfulTasks(limit);
    for (const r of refunds) this.cache.delete(r.accountId);
    return refunds;
  }

  /** Forgets cached quotas (an admin changed a limit). */
  forget(accountId: string): void {
    this.cache.delete(accountId);
  }
}

/** The one refusal for an account without credits left (the quota check, the reservation, task admission). */
export function quotaExhaustedError(q: Pick<AccountQuota, 'used' | 'limit'>, estimate: number): GatewayError {
  const needs = estimate ? `; this request needs ${fmt(estimate)}` : '';
  return new GatewayError(
    'quota_exhausted',
    `The account's credit quota is exhausted (${fmt(q.used)} of ${fmt(q.limit ?? 0)} used${needs}).`,
    {
      code: 'quota_exhausted',
    },
  );
}

const fmt = (n: number) => String(Math.round(n * 1e6) / 1e6);
