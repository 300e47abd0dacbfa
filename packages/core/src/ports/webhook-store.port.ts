import type { VideoTask } from '../video-task';
import type { WebhookEventType } from '../webhooks/webhook-events';

/** An account's endpoint; its signing secret is never part of it (shown once, at creation). */
export interface WebhookEndpoint {
  id: string;
  accountId: string;
  url: string;
  events: WebhookEventType[];
  createdAt: Date;
  /** set once it failed for the whole retry window; nothing more is sent to it */
  disabledAt: Date | null;
  disabledReason: string | null;
  /** the first failure of the current run of failures (cleared by a success) */
  failingSince: Date | null;
}

export interface NewWebhookEndpoint {
  id: string;
  accountId: string;
  url: string;
  events: WebhookEventType[];
  secret: string;
}

export type DeliveryState = 'pending' | 'delivered' | 'failed';

/** One POST tried: what the target answered (status and the start of the body) or why nothing came back. */
export interface WebhookAttempt {
  attempt: number;
  at: Date;
  statusCode: number | null;
  error: string | null;
  responseExcerpt: string | null;
  durationMs: number;
}

/** One event for one target (an endpoint, or the task's callback_url): the outbox row. */
export interface WebhookDelivery {
  id: string;
  /** the `webhook-id`, the same on every attempt */
  eventId: string;
  type: WebhookEventType;
  taskId: string;
  accountId: string;
  /** null for the task's callback_url */
  endpointId: string | null;
  /** the task as it was at the status change; null for an account event (account-alerts.ts), whose body is stored */
  task: VideoTask | null;
  eventAt: Date;
  state: DeliveryState;
  attempts: number;
  nextAttemptAt: Date;
  firstAttemptAt: Date | null;
  /** the body as first sent, so every retry sends the same bytes */
  body: string | null;
}

/** A delivery leased to one instance, with where it goes and the key it is signed with. */
export interface ClaimedDelivery {
  delivery: WebhookDelivery;
  url: string;
  /** the signing secret, or why it cannot be read (GATEWAY_SECRET missing or changed): then the attempt fails */
  secret: string | { unavailable: string };
  /** the endpoint was disabled after the delivery was written */
  disabled: boolean;
}

export type DeliveryOutcome = { state: 'delivered' } | { state: 'pending'; nextAttemptAt: Date } | { state: 'failed' };

/** Endpoints per account and each account's callback secret. */
export interface WebhookEndpointRepository {
  create(endpoint: NewWebhookEndpoint): Promise<WebhookEndpoint>;
  /** one account's endpoints, or every account's when accountId is absent (admin) */
  list(accountId?: string): Promise<WebhookEndpoint[]>;
  /** null when unknown or (with accountId) another account's */
  get(id: string, accountId?: string): Promise<WebhookEndpoint | null>;
  /** changes its url and/or events (failures and disabling are kept); null when unknown or (with accountId) another account's */
  update(id: string, patch: { url?: string; events?: WebhookEventType[] }, accountId?: string): Promise<WebhookEndpoint | null>;
  /** removes it and its pending deliveries; false when there was none */
  remove(id: string, accountId?: string): Promise<boolean>;
  /** the latest deliveries to an endpoint, newest first, each with its attempts */
  deliveries(endpointId: string, limit: number): Promise<Array<WebhookDelivery & { attemptLog: WebhookAttempt[] }>>;
  /** the account's secret for callback_url deliveries, created on first use */
  accountSecret(accountId: string): Promise<string>;
  /** a new callback_url secret for the account, replacing the old one at once */
  reissueAccountSecret(accountId: string): Promise<string>;
  /** a new signing secret for the endpoint, replacing the old one at once; null when there is no such endpoint */
  reissueEndpointSecret(id: string): Promise<string | null>;
}

/** One attempt at one delivery, as the outbox records it (with the body that was sent). */
export interface RecordedAttempt {
  id: string;
  owner: string;
  attempt: WebhookAttempt;
  outcome: DeliveryOutcome;
  body: string;
}

/**
 * The delivery side. Rows are written by the task store in the transaction of the status change; claims are
 * exclusive (SKIP LOCKED) and per task and target in order: a later event waits while an earlier one is pending.
 */
export interface WebhookOutbox {
  /**
   * Fair claims: never more than `perAccount` deliveries of one account leased at once (on every instance together),
   * and each account's earliest deliveries before any account's later ones, so one account's backlog never fills a
   * round.
   */
  claimDue(o: { owner: string; now: Date; leaseMs: number; limit: number; perAccount?: number }): Promise<ClaimedDelivery[]>;
  /** records the attempt, its outcome and the body sent, only while `owner` still holds the lease; false otherwise */
  recordAttempt(r: RecordedAttempt): Promise<boolean>;
  /** a settled delivery without an attempt (its endpoint was disabled) */
  abandon(id: string, owner: string): Promise<void>;
  /** marks the endpoint failing (from `now` if it was not); disables it once it has failed for `windowMs` */
  endpointFailed(endpointId: string, now: Date, windowMs: number, reason: string): Promise<{ disabled: boolean }>;
  endpointSucceeded(endpointId: string): Promise<void>;
}
