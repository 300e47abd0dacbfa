/**
 * The delivery loop's one round: claim due deliveries, sign, POST, record the attempt, then settle or schedule
 * the retry. At-least-once: a crash between the POST and the record sends it again, under the same webhook-id.
 *
 * Fair between accounts: a round starts its deliveries and returns without waiting for them (a hanging receiver
 * holds one slot, never the round), each delivery has its own time limit, at most `perAccount` deliveries of one
 * account are in flight, and claims go to the accounts with the fewest in flight first (docs/webhooks.md).
 */
import type { ClaimedDelivery, DeliveryOutcome, WebhookOutbox } from '../ports/webhook-store.port';
import type { WebhookAnswer, WebhookSender } from '../ports/webhook-sender.port';
import type { VideoTask } from '../video-task';
import type { WorkerLog } from '../use-cases/video-task-driver';
import { webhookEventBody } from './webhook-events';
import { nextAttemptAt, type WebhookRetryPolicy } from './webhook-retry';
import { signWebhook } from './webhook-signing';

export interface WebhookDispatcherDeps {
  outbox: WebhookOutbox;
  sender: WebhookSender;
  /** the task object in the task-read format's shape, for callback_url deliveries */
  renderCallback(task: VideoTask): unknown;
  retry: WebhookRetryPolicy;
  log: WorkerLog;
  now?: () => Date;
}

export interface WebhookDispatcherOptions {
  owner: string;
  /** deliveries in flight at once on this instance (a round claims what is free) */
  batch: number;
  /** deliveries of one account in flight at once (default 4) */
  perAccount?: number;
  /** a POST's time limit */
  timeoutMs: number;
  leaseMs: number;
}

const EXCERPT = 512;

export class WebhookDispatcher {
  private readonly now: () => Date;
  private readonly running = new Set<Promise<void>>();
  constructor(
    private readonly deps: WebhookDispatcherDeps,
    private readonly opts: WebhookDispatcherOptions,
  ) {
    this.now = deps.now ?? (() => new Date());
  }

  /** One round: claims what is free and starts it; resolves with how many deliveries it started (see idle()). */
  async pump(): Promise<number> {
    const free = this.opts.batch - this.running.size;
    if (free <= 0) return 0;
    const claimed = await this.deps.outbox.claimDue({
      owner: this.opts.owner,
      now: this.now(),
      leaseMs: this.opts.leaseMs,
      limit: free,
      perAccount: this.opts.perAccount ?? 4,
    });
    for (const c of claimed) this.start(c);
    return claimed.length;
  }

  /** Resolves once every delivery started so far has settled (shutdown, tests). */
  async idle(): Promise<void> {
    while (this.running.size) await Promise.allSettled([...this.running]);
  }

  private start(c: ClaimedDelivery): void {
    const run: Promise<void> = this.deliver(c)
      .catch((e: Error) => this.deps.log('warn', 'webhook delivery could not be recorded', { deliveryId: c.delivery.id, error: e.message }))
      .finally(() => this.running.delete(run));
    this.running.add(run);
  }

  private bodyOf(c: ClaimedDelivery): string {
    const d = c.delivery;
    // an account event is written with its body; a task event's body is rendered at its first attempt
    if (d.body !== null || d.task === null) return d.body ?? '{}';
    return JSON.stringify(d.endpointId ? webhookEventBody(d.eventId, d.task, d.eventAt) : this.deps.renderCallback(d.task));
  }

  /**
   * Signs and POSTs; a secret that cannot be read is a failed attempt like any other (retried, then given up). The
   * time limit covers the whole attempt (name resolution included), whatever the sender does.
   */
  private async send(c: ClaimedDelivery, body: string, at: Date): Promise<WebhookAnswer> {
    if (typeof c.secret !== 'string') return { error: `the signing secret cannot be read: ${c.secret.unavailable}` };
    const signed = signWebhook(c.secret, c.delivery.eventId, Math.floor(at.getTime() / 1000), body);
    const headers = { 'content-type': 'application/json', ...signed };
    const { timeoutMs } = this.opts;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<WebhookAnswer>((resolve) => {
      timer = setTimeout(() => resolve({ error: `no answer within ${timeoutMs} ms` }), timeoutMs + 1000);
    });
    const answer = this.deps.sender.post(c.url, { headers, body, timeoutMs }).catch((e: Error): WebhookAnswer => ({ error: e.message }));
    return Promise.race([answer, late]).finally(() => clearTimeout(timer));
  }

  private async deliver(c: ClaimedDelivery): Promise<void> {
    const d = c.delivery;
    const { outbox, log } = this.deps;
    if (c.disabled) return outbox.abandon(d.id, this.opts.owner);
    const body = this.bodyOf(c);
    const started = this.now();
    const t0 = Date.now();
    const answer = await this.send(c, body, started);
    const ok = 'status' in answer && answer.status >= 200 && answer.status < 300;
    const attempt = {
      attempt: d.attempts + 1,
      at: started,
      statusCode: 'status' in answer ? answer.status : null,
      error: 'error' in answer ? answer.error : null,
      responseExcerpt: 'excerpt' in answer ? answer.excerpt.slice(0, EXCERPT) : null,
      durationMs: Date.now() - t0,
    };
    let outcome: DeliveryOutcome = { state: 'delivered' };
    if (!ok) {
      const next = nextAttemptAt(this.deps.retry, attempt.attempt, d.firstAttemptAt ?? started, this.now());
      outcome = next ? { state: 'pending', nextAttemptAt: next } : { state: 'failed' };
    }
    if (!(await outbox.recordAttempt({ id: d.id, owner: this.opts.owner, attempt, outcome, body }))) return; // lease lost: another instance has it
    const fields = { deliveryId: d.id, eventId: d.eventId, taskId: d.taskId, endpointId: d.endpointId ?? undefined };
    if (ok) {
      if (d.endpointId) await outbox.endpointSucceeded(d.endpointId);
      return;
    }
    const why = attempt.error ?? `answered ${attempt.statusCode}`;
    log(
      outcome.state === 'failed' ? 'warn' : 'info',
      outcome.state === 'failed' ? 'webhook delivery given up' : 'webhook delivery failed',
      {
        ...fields,
        attempt: attempt.attempt,
        why,
      },
    );
    if (!d.endpointId) return;
    const reason = `every delivery failed for ${Math.round(this.deps.retry.windowMs / 3600_000)} h (last: ${why})`;
    const { disabled } = await outbox.endpointFailed(d.endpointId, started, this.deps.retry.windowMs, reason);
    if (disabled) log('warn', 'webhook endpoint disabled', { endpointId: d.endpointId, accountId: d.accountId, reason });
  }
}
