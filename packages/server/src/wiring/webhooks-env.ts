import {
  DEFAULT_KEY_EXPIRY_ALERT_HOURS,
  parseBudgetAlertThresholds,
  DEFAULT_TASK_WATCH_LIMITS,
  DEFAULT_WEBHOOK_RETRY,
  parseAllowedHosts,
  type TaskWatchLimits,
  type WebhookRetryPolicy,
} from '@gateway/core';
import type { EnvValues } from '../env.schema';

/** The webhook and live-status knobs (docs/webhooks.md, docs/configuration.md). */
export interface WebhookEnv {
  /** WEBHOOK_ALLOWED_HOSTS: hosts a webhook may target whatever their address, over http too */
  allowedHosts: string[];
  retry: WebhookRetryPolicy;
  /** WEBHOOK_TIMEOUT_MS: one POST's time limit */
  timeoutMs: number;
  /** WEBHOOK_WORKER_INTERVAL_MS: pause between delivery rounds */
  intervalMs: number;
  /** WEBHOOK_MAX_IN_FLIGHT_PER_ACCOUNT: one account's deliveries in flight at once, every instance together */
  perAccount?: number;
  /** TASK_EVENTS_POLL_MS: how often a live-status stream re-reads its task when no change notice came */
  livePollMs?: number;
  /** TASK_EVENTS_MAX_PER_KEY (100), _PER_ACCOUNT (1000), _PER_INSTANCE (10 000): open live-status streams, refused beyond with 429 */
  liveLimits?: TaskWatchLimits;
  /** budget and expiry alerts (docs/webhooks.md); absent: 80 and 100 %, 72 hours */
  alerts?: {
    /** BUDGET_ALERT_THRESHOLDS: percents of a key's budget (`none`: no budget alerts) */
    budgetThresholds: number[];
    /** KEY_EXPIRY_ALERT_HOURS: how long before its expiry a key is announced (0: never) */
    expiryLeadMs: number;
    /** ALERT_SWEEP_INTERVAL_MS: how often each instance looks for alerts due (60 000) */
    intervalMs: number;
  };
}

/** `v`: the checked numbers (env.schema.ts); `e`: the lists, read as text. */
export function webhookEnvOf(v: EnvValues, e: NodeJS.ProcessEnv): WebhookEnv {
  return {
    allowedHosts: parseAllowedHosts(e.WEBHOOK_ALLOWED_HOSTS),
    retry: {
      ...DEFAULT_WEBHOOK_RETRY,
      firstDelayMs: v.WEBHOOK_RETRY_FIRST_MS ?? DEFAULT_WEBHOOK_RETRY.firstDelayMs,
      maxDelayMs: v.WEBHOOK_RETRY_MAX_DELAY_MS ?? DEFAULT_WEBHOOK_RETRY.maxDelayMs,
      windowMs: v.WEBHOOK_RETRY_WINDOW_MS ?? DEFAULT_WEBHOOK_RETRY.windowMs,
    },
    timeoutMs: v.WEBHOOK_TIMEOUT_MS ?? 10_000,
    intervalMs: v.WEBHOOK_WORKER_INTERVAL_MS ?? 250,
    perAccount: v.WEBHOOK_MAX_IN_FLIGHT_PER_ACCOUNT ?? 4,
    livePollMs: v.TASK_EVENTS_POLL_MS,
    alerts: {
      budgetThresholds: e.BUDGET_ALERT_THRESHOLDS?.trim() === 'none' ? [] : parseBudgetAlertThresholds(e.BUDGET_ALERT_THRESHOLDS),
      expiryLeadMs: (v.KEY_EXPIRY_ALERT_HOURS ?? DEFAULT_KEY_EXPIRY_ALERT_HOURS) * 3_600_000,
      intervalMs: v.ALERT_SWEEP_INTERVAL_MS ?? 60_000,
    },
    liveLimits: {
      perKey: v.TASK_EVENTS_MAX_PER_KEY ?? DEFAULT_TASK_WATCH_LIMITS.perKey,
      perAccount: v.TASK_EVENTS_MAX_PER_ACCOUNT ?? DEFAULT_TASK_WATCH_LIMITS.perAccount,
      perInstance: v.TASK_EVENTS_MAX_PER_INSTANCE ?? DEFAULT_TASK_WATCH_LIMITS.perInstance,
    },
  };
}
