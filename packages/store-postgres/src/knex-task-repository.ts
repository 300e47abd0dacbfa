import type { Knex } from 'knex';
import {
  isTerminal,
  statusEvents,
  TASK_STATUSES,
  taskRequestOf,
  type Admission,
  type AdmissionRules,
  type AllAccountsTaskFilter,
  type ClaimedTask,
  type NewVideoTask,
  type ReleaseOptions,
  type TaskListFilter,
  type TaskRequest,
  type TaskQueue,
  type TaskRepository,
  type TaskStatus,
  type TaskTransition,
  type VideoRequest,
  type VideoTask,
} from '@gateway/core';
import { CLAIM_COLUMNS, encodeImages, joinRequest, rowToClaim, rowToTask, statusPatchToRow } from './task-row.codec';
import { json } from './row-values';
import { reserveCredits } from './credit-quota-sql';
import { KnexQuotaRepository } from './knex-quota-repository';
import { usageRowToColumns } from './usage-row.codec';
import { enqueueTaskEvents } from './webhook-outbox-sql';

/** Thrown inside the admission transaction to roll it back when the credits do not suffice. */
class Unaffordable extends Error {}

const ACTIVE: TaskStatus[] = ['queued', 'running'];
const TERMINAL = TASK_STATUSES.filter((s) => isTerminal(s));

/**
 * Video tasks in Postgres (or PGlite). Every status change is what the core decided (transitionTask), written as a
 * compare-and-set (`WHERE status = <expected>`) with its events (webhook outbox rows) in one transaction;
 * claims use `FOR UPDATE SKIP LOCKED`; lease bookkeeping is conditional on the lease owner, so a worker whose
 * lease ran out writes nothing. The input images' bytes live in video_task_inputs (migration 022), which only
 * loadRequest reads: no other query here touches them.
 */
export class KnexTaskRepository implements TaskRepository, TaskQueue {
  /** now: the clock credit budgets' periods are read by (the quota repository's, in tests an injected one) */
  constructor(
    protected readonly db: Knex,
    private readonly opts: { now?: () => Date } = {},
  ) {}

  private clock(): Date {
    return (this.opts.now ?? (() => new Date()))();
  }

  /** In `db` when it is the caller's transaction (admission); else in one of its own, with its webhook rows. */
  async create(task: NewVideoTask, db?: Knex): Promise<VideoTask> {
    if (!db) return this.db.transaction((trx) => this.create(task, trx));
    // Set here rather than by now(): millisecond timestamps keep (created_at, id) cursors exact.
    const createdAt = task.createdAt ?? this.clock();
    const [row] = await db('video_tasks')
      .insert({
        id: task.id,
        account_id: task.accountId,
        key_id: task.keyId,
        model: task.model,
        format: task.format,
        status: 'queued',
        request: JSON.stringify(taskRequestOf(task.request)),
        priority: task.priority,
        service_tier: task.serviceTier,
        execution_expires_after: task.executionExpiresAfter,
        idempotency_key: task.idempotencyKey,
        deployment: JSON.stringify(task.deployment),
        callback_url: task.callbackUrl ?? null,
        created_at: createdAt,
        updated_at: createdAt,
        next_poll_at: createdAt,
      })
      .returning('*');
    const images = encodeImages(task.request);
    if (images) await db('video_task_inputs').insert({ task_id: task.id, images: JSON.stringify(images) });
    await enqueueTaskEvents(db, row, statusEvents('queued', createdAt));
    return rowToTask(row);
  }

  async loadRequest(id: string): Promise<VideoRequest | null> {
    const r = await this.db('video_tasks as t')
      .leftJoin('video_task_inputs as i', 'i.task_id', 't.id')
      .where('t.id', id)
      .first('t.request', 'i.images');
    return r ? joinRequest(json<TaskRequest>(r.request)!, json(r.images)) : null;
  }

  async findForAccount(accountId: string, id: string): Promise<VideoTask | null> {
    const r = await this.db('video_tasks').where({ id, account_id: accountId }).first();
    return r ? rowToTask(r) : null;
  }

  async findById(id: string): Promise<VideoTask | null> {
    const r = await this.db('video_tasks').where({ id }).first();
    return r ? rowToTask(r) : null;
  }

  /** Compare-and-set on status: of two concurrent callers, exactly one wins; its webhook rows commit with it. */
  async applyTransition(id: string, decided: TaskTransition): Promise<VideoTask | null> {
    return this.db.transaction(async (trx) => {
      const row = await this.apply(trx, id, decided);
      return row && rowToTask(row);
    });
  }

  /** Writes one change (compare-and-set on its `from`) and its events in `trx`; the row, or null when it lost. */
  private async apply(trx: Knex, id: string, change: TaskTransition): Promise<Record<string, unknown> | null> {
    const [row] = await trx('video_tasks').where({ id, status: change.from }).update(statusPatchToRow(change.patch)).returning('*');
    if (!row) return null;
    await enqueueTaskEvents(trx, row, change.events);
    return row;
  }

  /**
   * Serialised per account by a transaction-scoped advisory lock, so the cap and the key hold under concurrency;
   * the credit reservation is a conditional UPDATE in the same transaction, so the books hold on every instance.
   */
  async admit(task: NewVideoTask, rules: AdmissionRules): Promise<Admission> {
    try {
      return await this.admitInTransaction(task, rules);
    } catch (e) {
      if (!(e instanceof Unaffordable)) throw e;
      // say whose quota it was: the account's, or (when the account's would have fit) the key's budget
      const quotas = new KnexQuotaRepository(this.db, this.opts);
      const account = await quotas.get(task.accountId);
      const price = rules.price ?? 0;
      const q = account.limit !== null && account.used + price > account.limit ? account : await quotas.getKey(task.keyId);
      return { outcome: 'unaffordable', used: q.used, limit: q.limit ?? 0, scope: 'keyId' in q ? 'key' : 'account' };
    }
  }

  private admitInTransaction(task: NewVideoTask, rules: AdmissionRules): Promise<Admission> {
    return this.db.transaction(async (trx) => {
      await trx.raw('select pg_advisory_xact_lock(hashtext(?))', [`video_tasks:${task.accountId}`]);
      if (task.idempotencyKey) {
        const prior = await trx('video_tasks').where({ account_id: task.accountId, idempotency_key: task.idempotencyKey }).first();
        if (prior && new Date(prior.created_at) >= rules.idempotentSince) return { outcome: 'replayed', task: rowToTask(prior) };
        // A stale key is released so it may start a new task (the unique index covers live keys only by this rule).
        if (prior) await trx('video_tasks').where({ id: prior.id }).update({ idempotency_key: null });
      }
      const [{ n }] = (await trx('video_tasks').where({ account_id: task.accountId }).whereIn('status', ACTIVE).count({ n: '*' })) as [
        { n?: string | number },
      ];
      if (Number(n) >= rules.maxActive) return { outcome: 'capped', active: Number(n) };
      let created = await this.create(task, trx);
      const price = rules.price ?? 0;
      if (price > 0) {
        const payer = { accountId: task.accountId, keyId: task.keyId };
        if (!(await reserveCredits(trx, payer, price, 'video task', { taskId: task.id }, this.clock()))) throw new Unaffordable();
        const [row] = await trx('video_tasks')
          .where({ id: task.id })
          .update({ billing_state: 'charged', billed_credits: price })
          .returning('*');
        created = rowToTask(row);
      }
      if (rules.usage) await trx('usage_log').insert(usageRowToColumns({ createdAt: new Date(), ...rules.usage, taskId: task.id }));
      return { outcome: 'created', task: created };
    });
  }

  async list(accountId: string, f: TaskListFilter): Promise<{ items: VideoTask[]; hasMore: boolean; total: number }> {
    const filtered = () => {
      const q = this.db('video_tasks').where({ account_id: accountId });
      if (f.status) q.where({ status: f.status });
      if (f.model) q.where({ model: f.model });
      if (f.ids) q.whereIn('id', f.ids);
      if (f.keyId) q.where({ key_id: f.keyId });
      return q;
    };
    const [{ n }] = (await filtered().count({ n: '*' })) as [{ n?: string | number }];
    const page = filtered();
    if (f.after) page.whereRaw(`(created_at, id) ${f.order === 'asc' ? '>' : '<'} (?, ?)`, [f.after.createdAt, f.after.id]);
    return { ...(await pageOf(page, f.order, f.limit, f.offset)), total: Number(n) };
  }

  /** Newest first over every account: served by video_tasks_created (migration 003) or, with an account, (account_id, created_at). */
  async listAcrossAccounts(f: AllAccountsTaskFilter): Promise<{ items: VideoTask[]; hasMore: boolean }> {
    const q = this.db('video_tasks');
    if (f.accountId) q.where({ account_id: f.accountId });
    if (f.status) q.where({ status: f.status });
    if (f.model) q.where({ model: f.model });
    if (f.before) q.whereRaw('(created_at, id) < (?, ?)', [f.before.createdAt, f.before.id]);
    return pageOf(q, 'desc', f.limit);
  }

  async deleteFinished(accountId: string, id: string): Promise<VideoTask | null> {
    const rows = await this.db('video_tasks').where({ id, account_id: accountId }).whereIn('status', TERMINAL).del().returning('*');
    return rows.length ? rowToTask(rows[0]) : null;
  }

  async claimDue(o: { owner: string; now: Date; leaseMs: number; limit: number }): Promise<ClaimedTask[]> {
    const { rows } = await this.db.raw(
      `update video_tasks t set lease_owner = ?, lease_until = ?
         from (select id from video_tasks
                where status in ('queued', 'running') and next_poll_at <= ? and (lease_until is null or lease_until < ?)
                order by next_poll_at, created_at
                limit ?
                for update skip locked) due
        where t.id = due.id
        returning ${CLAIM_COLUMNS.map((c) => `t.${c}`).join(', ')}`,
      [o.owner, new Date(o.now.getTime() + o.leaseMs), o.now, o.now, o.limit],
    );
    return (rows as Record<string, unknown>[]).map(rowToClaim);
  }

  private leased(id: string, owner: string) {
    return this.db('video_tasks').where({ id, lease_owner: owner });
  }

  async extendLease(id: string, owner: string, until: Date): Promise<boolean> {
    return (await this.leased(id, owner).update({ lease_until: until })) > 0;
  }

  async markSubmitting(id: string, owner: string, at: Date): Promise<boolean> {
    return (await this.leased(id, owner).where({ status: 'queued' }).whereNull('upstream').update({ submit_started_at: at })) > 0;
  }

  async saveOperation(id: string, owner: string, upstream: { provider: string; operation: string }): Promise<VideoTask | null> {
    const rows = await this.leased(id, owner)
      .where({ status: 'queued' })
      .whereNull('upstream')
      .update({ upstream: JSON.stringify(upstream), submit_started_at: null, poll_attempts: 0, updated_at: this.clock() })
      .returning('*');
    return rows.length ? rowToTask(rows[0]) : null;
  }

  async release(id: string, owner: string, opts: ReleaseOptions): Promise<boolean> {
    return (await this.releaseMany(owner, [{ id, opts }])).has(id);
  }

  /** One UPDATE … FROM (VALUES …) for many releases: a claim round's polls cost one write, not one each. */
  async releaseMany(owner: string, items: Array<{ id: string; opts: ReleaseOptions }>): Promise<Set<string>> {
    if (!items.length) return new Set();
    const values = items.map(() => '(?, ?::timestamptz, ?::integer, ?::integer, ?::boolean)').join(', ');
    const params = items.flatMap(({ id, opts: o }) => [
      id,
      o.nextPollAt,
      o.pollAttempts ?? null,
      o.progress ?? null,
      o.clearSubmission === true,
    ]);
    const { rows } = await this.db.raw(
      `update video_tasks t
          set lease_owner = null, lease_until = null, next_poll_at = v.next_poll_at,
              poll_attempts = coalesce(v.poll_attempts, t.poll_attempts),
              progress = coalesce(v.progress, t.progress),
              submit_started_at = case when v.clear_submission then null else t.submit_started_at end
         from (values ${values}) as v(id, next_poll_at, poll_attempts, progress, clear_submission)
        where t.id = v.id and t.lease_owner = ?
        returning t.id`,
      [...params, owner],
    );
    return new Set((rows as Array<{ id: string }>).map((r) => r.id));
  }

  async expireOverdue(now: Date, limit: number, expire: (task: { status: TaskStatus }) => TaskTransition): Promise<VideoTask[]> {
    return this.db.transaction(async (trx) => {
      const due: Array<{ id: string; status: TaskStatus }> = await trx('video_tasks')
        .select('id', 'status')
        .whereIn('status', ACTIVE)
        .whereRaw(`created_at + execution_expires_after * interval '1 second' <= ?`, [now])
        .orderBy('created_at')
        .limit(limit)
        .forUpdate()
        .skipLocked();
      const expired: VideoTask[] = [];
      for (const d of due) {
        const row = await this.apply(trx, d.id, expire(d));
        if (row) expired.push(rowToTask(row));
      }
      return expired;
    });
  }

  async purgeCreatedBefore(cutoff: Date, limit: number): Promise<VideoTask[]> {
    const { rows } = await this.db.raw(
      `delete from video_tasks
        where id in (select id from video_tasks where created_at < ? order by created_at limit ? for update skip locked)
        returning *`,
      [cutoff, limit],
    );
    return (rows as Record<string, unknown>[]).map(rowToTask);
  }
}

/** One page by (created_at, id), with one row past the limit to tell whether more follow. */
async function pageOf(q: Knex.QueryBuilder, order: 'asc' | 'desc', limit: number, offset = 0) {
  const rows = await q
    .orderBy('created_at', order)
    .orderBy('id', order)
    .offset(offset)
    .limit(limit + 1);
  return { items: rows.slice(0, limit).map(rowToTask), hasMore: rows.length > limit };
}
