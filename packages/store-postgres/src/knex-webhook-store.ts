import type { Knex } from 'knex';
import {
  GatewayError,
  newWebhookSecret,
  type ClaimedDelivery,
  type NewWebhookEndpoint,
  type RecordedAttempt,
  type WebhookAttempt,
  type WebhookDelivery,
  type WebhookEndpoint,
  type WebhookEndpointRepository,
  type WebhookEventType,
  type WebhookOutbox,
} from '@gateway/core';
import { seal, unseal, WEBHOOK_SECRETS } from './secret-box';
import { rowToTask } from './task-row.codec';
import { columnsOf, date, json } from './row-values';

function rowToEndpoint(r: Record<string, any>): WebhookEndpoint {
  return {
    ...columnsOf(r, ['id', 'accountId', 'url']),
    events: json<WebhookEventType[]>(r.events)!,
    createdAt: new Date(r.created_at),
    failingSince: date(r.failing_since),
    disabledAt: date(r.disabled_at),
    disabledReason: r.disabled_reason ?? null,
  };
}

function rowToDelivery(r: Record<string, any>): WebhookDelivery {
  return {
    ...columnsOf(r, ['id', 'eventId', 'type', 'taskId', 'accountId', 'state']),
    endpointId: r.endpoint_id ?? null,
    task: r.task && rowToTask(json(r.task)!),
    eventAt: new Date(r.event_at),
    attempts: Number(r.attempts),
    nextAttemptAt: new Date(r.next_attempt_at),
    firstAttemptAt: date(r.first_attempt_at),
    body: r.body ?? null,
  };
}

function rowToAttempt(r: Record<string, any>): WebhookAttempt {
  return {
    attempt: Number(r.attempt),
    at: new Date(r.at),
    statusCode: r.status_code === null ? null : Number(r.status_code),
    error: r.error ?? null,
    responseExcerpt: r.response_excerpt ?? null,
    durationMs: Number(r.duration_ms),
  };
}

/**
 * Endpoints, callback secrets and the outbox in Postgres (or PGlite). The outbox rows themselves are written by the
 * task repository (webhook-outbox-sql.ts) in the transaction of each status change.
 */
export class KnexWebhookStore implements WebhookEndpointRepository, WebhookOutbox {
  /**
   * sealKey: GATEWAY_SECRET (or, on the embedded store only, DATA_DIR's generated secret); without one, nothing is
   * stored. previousSealKey: GATEWAY_SECRET_PREVIOUS, which still opens what it sealed during a rotation.
   */
  constructor(
    private readonly db: Knex,
    private readonly opts: { sealKey?: string; previousSealKey?: string } = {},
  ) {}

  private sealed(secret: string): string {
    if (!this.opts.sealKey)
      throw new GatewayError(
        'invalid_request',
        'Webhook signing secrets are stored encrypted, and this gateway has no GATEWAY_SECRET to encrypt them with; the operator must set GATEWAY_SECRET.',
        { code: 'webhook_secret_unavailable' },
      );
    return seal(secret, this.opts.sealKey, WEBHOOK_SECRETS);
  }

  /** A secret neither secret opens is the operator's to fix: a clear 409, never a 500. */
  private opened(sealed: string, whose: string): string {
    try {
      return unseal(sealed, [this.opts.sealKey, this.opts.previousSealKey], WEBHOOK_SECRETS);
    } catch (e) {
      throw new GatewayError(
        'conflict',
        `The webhook signing secret of ${whose} cannot be read: ${(e as Error).message}. The operator must set GATEWAY_SECRET_PREVIOUS to the secret it was sealed with, or re-issue it.`,
        { code: 'webhook_secret_unreadable' },
      );
    }
  }

  /** A new callback_url signing secret for the account (the old one stops verifying at once); shown this once. */
  async reissueAccountSecret(accountId: string): Promise<string> {
    const secret = newWebhookSecret();
    await this.db('webhook_account_secrets')
      .insert({ account_id: accountId, secret: this.sealed(secret) })
      .onConflict('account_id')
      .merge(['secret']);
    return secret;
  }

  /** A new signing secret for the endpoint; null when there is no such endpoint. */
  async reissueEndpointSecret(id: string): Promise<string | null> {
    const secret = newWebhookSecret();
    const rows = await this.db('webhook_endpoints')
      .where({ id })
      .update({ secret: this.sealed(secret) })
      .returning('id');
    return rows.length ? secret : null;
  }

  async create(e: NewWebhookEndpoint): Promise<WebhookEndpoint> {
    const [row] = await this.db('webhook_endpoints')
      .insert({ id: e.id, account_id: e.accountId, url: e.url, events: JSON.stringify(e.events), secret: this.sealed(e.secret) })
      .returning('*');
    return rowToEndpoint(row);
  }

  private scoped(id: string, accountId?: string) {
    const q = this.db('webhook_endpoints').where({ id });
    return accountId === undefined ? q : q.where({ account_id: accountId });
  }

  async list(accountId?: string): Promise<WebhookEndpoint[]> {
    const q = this.db('webhook_endpoints').orderBy([{ column: 'created_at' }, { column: 'id' }]);
    if (accountId !== undefined) q.where({ account_id: accountId });
    return (await q).map(rowToEndpoint);
  }

  async get(id: string, accountId?: string): Promise<WebhookEndpoint | null> {
    const r = await this.scoped(id, accountId).first();
    return r ? rowToEndpoint(r) : null;
  }

  async update(id: string, patch: { url?: string; events?: WebhookEventType[] }, accountId?: string): Promise<WebhookEndpoint | null> {
    const columns: Record<string, unknown> = {};
    if (patch.url !== undefined) columns.url = patch.url;
    if (patch.events !== undefined) columns.events = JSON.stringify(patch.events);
    if (!Object.keys(columns).length) return this.get(id, accountId);
    const [row] = await this.scoped(id, accountId).update(columns).returning('*');
    return row ? rowToEndpoint(row) : null;
  }

  async remove(id: string, accountId?: string): Promise<boolean> {
    // returning(): the embedded driver reports no row count for a plain delete
    return (await this.scoped(id, accountId).del().returning('id')).length > 0;
  }

  async deliveries(endpointId: string, limit: number): Promise<Array<WebhookDelivery & { attemptLog: WebhookAttempt[] }>> {
    const rows = await this.db('webhook_deliveries').where({ endpoint_id: endpointId }).orderBy('seq', 'desc').limit(limit);
    const ids = rows.map((r) => r.id);
    const attempts = ids.length ? await this.db('webhook_attempts').whereIn('delivery_id', ids).orderBy('attempt') : [];
    return rows.map((r) => ({
      ...rowToDelivery(r),
      attemptLog: attempts.filter((a) => a.delivery_id === r.id).map(rowToAttempt),
    }));
  }

  async accountSecret(accountId: string): Promise<string> {
    const existing = await this.db('webhook_account_secrets').where({ account_id: accountId }).first();
    if (existing) return this.opened(existing.secret, `account ${accountId}'s callbacks`);
    // two first uses at once: one insert wins, both read the winner
    await this.db('webhook_account_secrets')
      .insert({ account_id: accountId, secret: this.sealed(newWebhookSecret()) })
      .onConflict('account_id')
      .ignore();
    const row = await this.db('webhook_account_secrets').where({ account_id: accountId }).first();
    return this.opened(row.secret, `account ${accountId}'s callbacks`);
  }

  /**
   * Due, unleased, and the earliest pending one of its task for its target (so one task's events go in order); fair
   * between accounts: each account's deliveries are ranked by due time, an account already holding `perAccount`
   * leases (every instance's) gets none, and rank 1 of every account comes before rank 2 of any.
   */
  async claimDue(o: { owner: string; now: Date; leaseMs: number; limit: number; perAccount?: number }): Promise<ClaimedDelivery[]> {
    const perAccount = o.perAccount ?? 1_000_000;
    const { rows } = await this.db.raw(
      `with due as (
         select w.id, w.next_attempt_at, w.seq,
                row_number() over (partition by w.account_id order by w.next_attempt_at, w.seq)
                  + (select count(*) from webhook_deliveries l
                      where l.account_id = w.account_id and l.lease_until is not null and l.lease_until >= ?) as rank
           from webhook_deliveries w
          where w.state = 'pending' and w.next_attempt_at <= ? and (w.lease_until is null or w.lease_until < ?)
            and not exists (select 1 from webhook_deliveries p
                             where p.task_id = w.task_id and p.seq < w.seq and p.state = 'pending'
                               and p.endpoint_id is not distinct from w.endpoint_id)
       ),
       picked as (
         select w.id from webhook_deliveries w join due on due.id = w.id
          where due.rank <= ?
          order by due.rank, due.next_attempt_at, due.seq
          limit ?
          for update of w skip locked
       )
       update webhook_deliveries d set lease_owner = ?, lease_until = ?
         from picked
        where d.id = picked.id and (d.lease_until is null or d.lease_until < ?)
        returning d.*`,
      [o.now, o.now, o.now, perAccount, o.limit, o.owner, new Date(o.now.getTime() + o.leaseMs), o.now],
    );
    const claimed = (rows as Record<string, any>[]).map((r) => ({ row: r, delivery: rowToDelivery(r) }));
    const endpointIds = [...new Set(claimed.map((c) => c.delivery.endpointId).filter((id): id is string => id !== null))];
    const endpoints = new Map<string, Record<string, any>>(
      endpointIds.length ? (await this.db('webhook_endpoints').whereIn('id', endpointIds)).map((e) => [e.id, e]) : [],
    );
    const out: ClaimedDelivery[] = [];
    for (const { row, delivery } of claimed) {
      if (delivery.endpointId === null) {
        const secret = await this.readable(() => this.accountSecret(delivery.accountId));
        out.push({ delivery, url: row.callback_url, secret, disabled: false });
        continue;
      }
      const e = endpoints.get(delivery.endpointId);
      if (!e) continue; // deleted between the claim and this read: its rows went with it
      out.push({
        delivery,
        url: e.url,
        secret: await this.readable(async () => this.opened(e.secret, `endpoint ${e.id}`)),
        disabled: e.disabled_at !== null,
      });
    }
    return out;
  }

  /** One delivery whose secret cannot be read must not stop the others: it fails its attempt instead. */
  private async readable(read: () => Promise<string>): Promise<string | { unavailable: string }> {
    try {
      return await read();
    } catch (e) {
      return { unavailable: (e as Error).message };
    }
  }

  async recordAttempt(r: RecordedAttempt): Promise<boolean> {
    const { id, owner, attempt: a, outcome, body } = r;
    return this.db.transaction(async (trx) => {
      const n = await trx('webhook_deliveries')
        .where({ id, lease_owner: owner })
        .update({
          state: outcome.state,
          attempts: a.attempt,
          next_attempt_at: outcome.state === 'pending' ? outcome.nextAttemptAt : a.at,
          first_attempt_at: trx.raw('coalesce(first_attempt_at, ?)', [a.at]),
          body,
          lease_owner: null,
          lease_until: null,
        });
      if (!n) return false;
      await trx('webhook_attempts').insert({
        delivery_id: id,
        attempt: a.attempt,
        at: a.at,
        status_code: a.statusCode,
        error: a.error,
        response_excerpt: a.responseExcerpt,
        duration_ms: a.durationMs,
      });
      return true;
    });
  }

  async abandon(id: string, owner: string): Promise<void> {
    await this.db('webhook_deliveries').where({ id, lease_owner: owner }).update({ state: 'failed', lease_owner: null, lease_until: null });
  }

  async endpointFailed(endpointId: string, now: Date, windowMs: number, reason: string): Promise<{ disabled: boolean }> {
    const [e] = await this.db('webhook_endpoints')
      .where({ id: endpointId })
      .update({ failing_since: this.db.raw('coalesce(failing_since, ?)', [now]) })
      .returning(['failing_since', 'disabled_at']);
    if (!e || e.disabled_at !== null || now.getTime() - new Date(e.failing_since).getTime() < windowMs) return { disabled: false };
    const n = await this.db('webhook_endpoints')
      .where({ id: endpointId })
      .whereNull('disabled_at')
      .update({ disabled_at: now, disabled_reason: reason });
    return { disabled: n > 0 };
  }

  async endpointSucceeded(endpointId: string): Promise<void> {
    await this.db('webhook_endpoints').where({ id: endpointId }).whereNotNull('failing_since').update({ failing_since: null });
  }
}
