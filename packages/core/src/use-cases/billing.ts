import type { Principal } from '../auth';
import { periodEnd } from '../budget-period';
import { GatewayError } from '../errors';
import { ReadThroughCache } from '../read-through-cache';
import type { ModelCatalogue } from '../catalogue';
import type { CreditQuota, CreditRefs, QuotaRepository } from '../ports/quota-repository.port';
import { settleDeliveredTasks, type SettledTask } from './video-delivery-billing';

/** What a caller has left: the tighter of its account's quota and its key's budget. */
export interface BudgetStatus {
  /** credits left in the current period; null = unlimited */
  remaining: number | null;
  /** when the binding quota starts again from zero; null = never (or unlimited) */
  resetsAt: Date | null;
}

type Scope = 'account' | 'key';

/**
 * The quota rule, once: check before upstream work, settle after; a video task is charged when it is accepted,
 * refunded (once) if it ends failed, cancelled or expired, and settled (once) on what it delivered if it succeeds. Both the account's quota and the key's budget
 * (each with its own period) must allow the work.
 */
export class Billing {
  private readonly cache: ReadThroughCache<CreditQuota>;

  /**
   * cacheMs: how long a quota read is reused by prechecks (charges made here drop it at once; charges made by other
   * instances show within cacheMs), so the hot path does not read the store on every request.
   */
  constructor(
    private readonly quotas: QuotaRepository,
    private readonly opts: { cacheMs?: number; now?: () => number } = {},
  ) {
    this.cache = new ReadThroughCache({ ttlMs: opts.cacheMs ?? 1000, maxEntries: 100_000, now: opts.now });
  }

  private now(): number {
    return (this.opts.now ?? Date.now)();
  }

  private quota(scope: Scope, id: string): Promise<CreditQuota> {
    return this.cache.get(`${scope}:${id}`, () => (scope === 'account' ? this.quotas.get(id) : this.quotas.getKey(id)));
  }

  /** Both quotas: at once from the cache when both are fresh (no promise per read on the hot path), else read. */
  private quotasOf(p: Principal): Array<[Scope, CreditQuota]> | Promise<Array<[Scope, CreditQuota]>> {
    const account = this.cache.peek(`account:${p.accountId}`);
    const key = this.cache.peek(`key:${p.keyId}`);
    if (account && key)
      return [
        ['account', account],
        ['key', key],
      ];
    return Promise.all([
      this.quota('account', p.accountId).then((q) => ['account', q] as [Scope, CreditQuota]),
      this.quota('key', p.keyId).then((q) => ['key', q] as [Scope, CreditQuota]),
    ]);
  }

  private forgetPayer(p: { accountId: string; keyId?: string }): void {
    this.cache.forget(`account:${p.accountId}`);
    if (p.keyId) this.cache.forget(`key:${p.keyId}`);
  }

  /** Refuses work the caller cannot pay for: used + estimate must stay within the account's and the key's limits. */
  async precheck(principal: Principal, estimate = 0): Promise<void> {
    const quotas = this.quotasOf(principal);
    for (const [scope, q] of Array.isArray(quotas) ? quotas : await quotas) {
      if (q.limit === null) continue;
      if (q.used + estimate > q.limit || (estimate === 0 && q.used >= q.limit)) throw quotaExhaustedError(q, estimate, scope);
    }
  }

  /** The remaining credits shown to callers (response headers): the tighter quota, from the cached reads. */
  async status(principal: Principal): Promise<BudgetStatus> {
    let out: BudgetStatus = { remaining: null, resetsAt: null };
    const quotas = this.quotasOf(principal);
    for (const [, q] of Array.isArray(quotas) ? quotas : await quotas) {
      if (q.limit === null) continue;
      const remaining = Math.max(0, q.limit - q.used);
      if (out.remaining === null || remaining < out.remaining)
        out = { remaining, resetsAt: q.period ? periodEnd(q.period, new Date(this.now())) : null };
    }
    return out;
  }

  /**
   * Takes a price known before the call (images) in one conditional write, so parallel requests on any
   * number of instances never take more than the remaining credits. Nothing to take: the precheck alone.
   */
  async reserve(principal: Principal, amount: number, reason: string, refs: CreditRefs): Promise<void> {
    if (amount <= 0) return this.precheck(principal);
    const taken = await this.quotas.reserve(principal, amount, reason, refs);
    this.forgetPayer(principal);
    if (taken) return;
    const account = await this.quotas.get(principal.accountId);
    const fits = account.limit === null || account.used + amount <= account.limit;
    throw fits ? quotaExhaustedError(await this.quotas.getKey(principal.keyId), amount, 'key') : quotaExhaustedError(account, amount);
  }

  /** Gives back the unused part of a reservation. */
  async refund(principal: Principal, amount: number, reason: string, refs: CreditRefs): Promise<void> {
    if (amount <= 0) return;
    await this.quotas.charge(principal, -amount, reason, refs);
    this.forgetPayer(principal);
  }

  async settle(principal: Principal, amount: number, reason: string, refs: CreditRefs): Promise<void> {
    if (amount <= 0) return;
    await this.quotas.charge(principal, amount, reason, refs);
    this.forgetPayer(principal);
  }

  /** Refunds one task if it is owed (charged, ended unsuccessfully): a compare-and-set, never twice. */
  async refundTask(taskId: string): Promise<void> {
    const refund = await this.quotas.refundTask(taskId);
    if (refund) this.forgetPayer(refund);
  }

  /** Worker housekeeping: every refund owed, in batches. */
  async refundUnsuccessfulTasks(limit = 100) {
    const refunds = await this.quotas.refundUnsuccessfulTasks(limit);
    for (const r of refunds) this.forgetPayer(r);
    return refunds;
  }

  /**
   * Settles succeeded tasks on what they delivered (video-delivery-billing.ts): the one named (right after it
   * succeeded, or before its record is deleted), or every one still owed (worker housekeeping).
   */
  async settleDelivered(catalogue: ModelCatalogue, opts: { taskId?: string; limit?: number } = {}): Promise<SettledTask[]> {
    const settled = await settleDeliveredTasks(this.quotas, catalogue, opts);
    for (const s of settled) this.forgetPayer(s);
    return settled;
  }

  /** Forgets cached quotas (an admin changed a limit). */
  forget(accountId: string, keyId?: string): void {
    this.forgetPayer({ accountId, keyId });
  }
}

/**
 * The refusal for a caller without credits left (the quota check, the reservation, task admission): the
 * account's quota (`quota_exhausted`) or the key's budget (`key_budget_exhausted`), both 429 quota_exhausted.
 */
export function quotaExhaustedError(
  q: Pick<CreditQuota, 'used' | 'limit'> & { period?: CreditQuota['period'] },
  estimate: number,
  scope: Scope = 'account',
): GatewayError {
  const needs = estimate ? `; this request needs ${fmt(estimate)}` : '';
  const whose = scope === 'key' ? "This key's credit budget" : "The account's credit quota";
  const per = q.period ? ` ${q.period === 'daily' ? 'today (UTC)' : 'this month (UTC)'}` : '';
  return new GatewayError('quota_exhausted', `${whose} is exhausted (${fmt(q.used)} of ${fmt(q.limit ?? 0)} used${per}${needs}).`, {
    code: scope === 'key' ? 'key_budget_exhausted' : 'quota_exhausted',
  });
}

const fmt = (n: number) => String(Math.round(n * 1e6) / 1e6);
