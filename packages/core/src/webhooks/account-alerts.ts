/**
 * Budget and expiry alerts (docs/webhooks.md, "Budget and expiry alerts"): a key's budget crossing a threshold
 * (`budget.threshold`, once per threshold per budget period) and a key nearing its expiry (`key.expiring`, once per
 * expiry) go out through the account's signed webhook endpoints. The store records each alert sent, unique per key,
 * type, threshold and period, in the transaction that writes its deliveries: several instances never send one twice.
 */
import { periodStart, usedInPeriod, type BudgetPeriod } from '../budget-period';
import { newEventId } from './webhook-events';

export const DEFAULT_BUDGET_ALERT_THRESHOLDS: readonly number[] = Object.freeze([80, 100]);
export const DEFAULT_KEY_EXPIRY_ALERT_HOURS = 72;

export type AccountAlertType = 'budget.threshold' | 'key.expiring';

/** A key with a credit budget, as the sweep reads it. */
export interface KeyBudgetState {
  keyId: string;
  accountId: string;
  name: string | null;
  limit: number;
  used: number;
  period: BudgetPeriod | null;
  periodStart: Date | null;
}

export interface ExpiringKey {
  keyId: string;
  accountId: string;
  name: string | null;
  expiresAt: Date;
}

/** One alert to send once: `once` is what makes it unique besides the key and type (threshold and period). */
export interface AccountAlert {
  type: AccountAlertType;
  accountId: string;
  keyId: string;
  once: { threshold: number; period: string };
  eventId: string;
  at: Date;
  /** the JSON body every subscribed endpoint receives, signed (Standard Webhooks) */
  body: string;
}

/** Reads what may need an alert, and sends an alert once: its record and its deliveries in one transaction. */
export interface AccountAlertStore {
  /** active keys whose budget is used at least `minPercent` (of a positive limit), whatever the period */
  budgetsAtLeast(minPercent: number): Promise<KeyBudgetState[]>;
  /** active keys that expire after `now` and at or before `until` */
  keysExpiringBy(now: Date, until: Date): Promise<ExpiringKey[]>;
  /** false (nothing written) when this alert was sent already */
  sendOnce(alert: AccountAlert): Promise<boolean>;
}

/** BUDGET_ALERT_THRESHOLDS: percents from 1 to 1000, comma-separated; undefined or empty: the defaults. */
export function parseBudgetAlertThresholds(raw: string | undefined): number[] {
  if (raw === undefined || raw.trim() === '') return [...DEFAULT_BUDGET_ALERT_THRESHOLDS];
  const list = raw.split(',').map((s) => Number(s.trim()));
  if (list.some((n) => !Number.isInteger(n) || n < 1 || n > 1000))
    throw new Error(`BUDGET_ALERT_THRESHOLDS must be whole percents from 1 to 1000, comma-separated (e.g. 80,100); got "${raw}".`);
  return [...new Set(list)].sort((a, b) => a - b);
}

const unix = (d: Date) => Math.floor(d.getTime() / 1000);
const keyRef = (k: { keyId: string; name: string | null }) => ({ id: k.keyId, name: k.name });

/** The thresholds a budget has reached in its current period, and the period they count in. */
export function reachedThresholds(b: KeyBudgetState, thresholds: readonly number[], now: Date): { reached: number[]; period: string } {
  const used = usedInPeriod(b, now);
  const period = b.period ? periodStart(b.period, now).toISOString() : 'lifetime';
  return { reached: thresholds.filter((t) => b.limit > 0 && used * 100 >= t * b.limit), period };
}

export function budgetAlert(b: KeyBudgetState, threshold: number, period: string, now: Date): AccountAlert {
  const eventId = newEventId();
  const data = {
    account: b.accountId,
    key: keyRef(b),
    threshold_percent: threshold,
    credit_limit: b.limit,
    credits_used: usedInPeriod(b, now),
    period: b.period,
    period_start: period === 'lifetime' ? null : period,
  };
  const body = { object: 'event', id: eventId, type: 'budget.threshold', created_at: unix(now), data };
  return {
    type: 'budget.threshold',
    accountId: b.accountId,
    keyId: b.keyId,
    once: { threshold, period },
    eventId,
    at: now,
    body: JSON.stringify(body),
  };
}

export function expiryAlert(k: ExpiringKey, now: Date): AccountAlert {
  const eventId = newEventId();
  const data = { account: k.accountId, key: keyRef(k), expires_at: k.expiresAt.toISOString() };
  const body = { object: 'event', id: eventId, type: 'key.expiring', created_at: unix(now), data };
  // once per expiry: a key given a later expiry is announced again when that one nears
  const once = { threshold: 0, period: k.expiresAt.toISOString() };
  return { type: 'key.expiring', accountId: k.accountId, keyId: k.keyId, once, eventId, at: now, body: JSON.stringify(body) };
}

export interface AccountAlertOptions {
  /** percents of a key's budget, ascending */
  budgetThresholds: readonly number[];
  /** how long before its expiry a key is announced */
  expiryLeadMs: number;
}

/** One sweep: every alert due now, each sent once. Runs on every instance; the store's unique record decides. */
export async function sweepAccountAlerts(store: AccountAlertStore, opts: AccountAlertOptions, now: Date): Promise<number> {
  let sent = 0;
  const lowest = opts.budgetThresholds[0];
  if (lowest !== undefined) {
    for (const b of await store.budgetsAtLeast(lowest)) {
      const { reached, period } = reachedThresholds(b, opts.budgetThresholds, now);
      for (const t of reached) if (await store.sendOnce(budgetAlert(b, t, period, now))) sent++;
    }
  }
  if (opts.expiryLeadMs > 0) {
    for (const k of await store.keysExpiringBy(now, new Date(now.getTime() + opts.expiryLeadMs)))
      if (await store.sendOnce(expiryAlert(k, now))) sent++;
  }
  return sent;
}
