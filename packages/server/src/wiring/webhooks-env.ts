import {
  DEFAULT_KEY_EXPIRY_ALERT_HOURS,
  parseBudgetAlertThresholds,
  DEFAULT_TASK_WATCH_LIMITS,
  DEFAULT_WEBHOOK_RETRY,
  parseAllowedHosts,
  type TaskWatchLimits,
  type WebhookRetryPolicy,
} from '@gateway/core';
import { wholeNumberFromEnv } from '../env-number';

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
  /** TASK_EVENTS_MAX_PER_KEY (100), TASK_EVENTS_MAX_PER_INSTANCE (10 000): open live-status streams, refused beyond with 429 */
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

export function webhookEnvFromProcess(e: NodeJS.ProcessEnv): WebhookEnv {
  const num = (name: string, min: number) => wholeNumberFromEnv(e, name, min);
  return {
    allowedHosts: parseAllowedHosts(e.WEBHOOK_ALLOWED_HOSTS),
    retry: {
      ...DEFAULT_WEBHOOK_RETRY,
      firstDelayMs: num('WEBHOOK_RETRY_FIRST_MS', 1) ?? DEFAULT_WEBHOOK_RETRY.firstDelayMs,
      maxDelayMs: num('WEBHOOK_RETRY_MAX_DELAY_MS', 1) ?? DEFAULT_WEBHOOK_RETRY.maxDelayMs,
      windowMs: num('WEBHOOK_RETRY_WINDOW_MS', 1) ?? DEFAULT_WEBHOOK_RETRY.windowMs,
    },
    timeoutMs: num('WEBHOOK_TIMEOUT_MS', 1) ?? 10_000,
    intervalMs: num('WEBHOOK_WORKER_INTERVAL_MS', 1) ?? 250,
    perAccount: num('WEBHOOK_MAX_IN_FLIGHT_PER_ACCOUNT', 1) ?? 4,
    livePollMs: num('TASK_EVENTS_POLL_MS', 1),
    alerts: {
      budgetThresholds: e.BUDGET_ALERT_THRESHOLDS?.trim() === 'none' ? [] : parseBudgetAlertThresholds(e.BUDGET_ALERT_THRESHOLDS),
      expiryLeadMs: (wholeNumberFromEnv(e, 'KEY_EXPIRY_ALERT_HOURS', 0) ?? DEFAULT_KEY_EXPIRY_ALERT_HOURS) * 3_600_000,
      intervalMs: num('ALERT_SWEEP_INTERVAL_MS', 1) ?? 60_000,
    },
    liveLimits: {
      perKey: num('TASK_EVENTS_MAX_PER_KEY', 1) ?? DEFAULT_TASK_WATCH_LIMITS.perKey,
      perInstance: num('TASK_EVENTS_MAX_PER_INSTANCE', 1) ?? DEFAULT_TASK_WATCH_LIMITS.perInstance,
    },
  };
}
