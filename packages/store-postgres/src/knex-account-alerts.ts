import type { Knex } from 'knex';
import { type AccountAlert, type AccountAlertStore, type BudgetPeriod, type ExpiringKey, type KeyBudgetState } from '@gateway/core';
import { enqueueDeliveries } from './webhook-outbox-sql';

/**
 * Budget and expiry alerts on PostgreSQL/PGlite: the record of an alert sent (unique per key, type, threshold and
 * period) and its outbox rows, one per enabled endpoint of the account subscribed to its type, commit together.
 */
export class KnexAccountAlerts implements AccountAlertStore {
  constructor(private readonly db: Knex) {}

  async budgetsAtLeast(minPercent: number): Promise<KeyBudgetState[]> {
    const rows = await this.db('key_quotas as q')
      .join('api_keys as k', 'k.id', 'q.key_id')
      .whereNull('k.revoked_at')
      .where('q.credit_limit', '>', 0)
      .whereRaw('q.credits_used * 100 >= q.credit_limit * ?', [minPercent])
      .select('k.id', 'k.account_id', 'k.name', 'q.credit_limit', 'q.credits_used', 'q.period', 'q.period_start');
    return rows.map((r) => ({
      keyId: r.id,
      accountId: r.account_id,
      name: r.name ?? null,
      limit: Number(r.credit_limit),
      used: Number(r.credits_used),
      period: (r.period ?? null) as BudgetPeriod | null,
      periodStart: r.period_start ? new Date(r.period_start) : null,
    }));
  }

  async keysExpiringBy(now: Date, until: Date): Promise<ExpiringKey[]> {
    const rows = await this.db('api_keys')
      .whereNull('revoked_at')
      .where('expires_at', '>', now)
      .where('expires_at', '<=', until)
      .select('id', 'account_id', 'name', 'expires_at');
    return rows.map((r) => ({ keyId: r.id, accountId: r.account_id, name: r.name ?? null, expiresAt: new Date(r.expires_at) }));
  }

  async sendOnce(a: AccountAlert): Promise<boolean> {
    return this.db.transaction(async (trx) => {
      const recorded = await trx('webhook_alerts_sent')
        .insert({
          key_id: a.keyId,
          type: a.type,
          threshold: a.once.threshold,
          period: a.once.period,
          account_id: a.accountId,
          event_id: a.eventId,
          sent_at: a.at,
        })
        .onConflict(['key_id', 'type', 'threshold', 'period'])
        .ignore()
        .returning('key_id');
      if (!recorded.length) return false;
      await enqueueDeliveries(trx, {
        event_id: a.eventId,
        type: a.type,
        task_id: a.keyId,
        account_id: a.accountId,
        task: null,
        body: a.body,
        event_at: a.at,
        // due at once: the delivery rounds run on the wall clock, whatever clock the sweep was given
        next_attempt_at: trx.fn.now(),
      });
      return true;
    });
  }
}
