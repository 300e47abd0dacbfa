import {
  isTerminal,
  statusEvents,
  taskRequestOf,
  type Admission,
  type AdmissionRules,
  type AllAccountsTaskFilter,
  type ClaimedTask,
  type NewVideoTask,
  type ReleaseOptions,
  type TaskListFilter,
  type TaskQueue,
  type TaskRepository,
  type TaskStatus,
  type TaskStatusEvent,
  type TaskTransition,
  type UsageLog,
  type VideoRequest,
  type VideoTask,
} from '@gateway/core';

interface Row {
  task: VideoTask;
  /** the request with its images' bytes, apart from the task as in the Postgres store */
  request: VideoRequest;
  leaseOwner: string | null;
  leaseUntil: Date | null;
  nextPollAt: Date;
  pollAttempts: number;
  submitStartedAt: Date | null;
}

/** A recorded status event and its task (the Postgres store writes one webhook outbox row per subscriber instead). */
export type RecordedTaskEvent = TaskStatusEvent & { taskId: string };

const ACTIVE: TaskStatus[] = ['queued', 'running'];
const copy = <T>(v: T): T => structuredClone(v);

/**
 * The task store in memory, with the same semantics as the Postgres one (it passes the same
 * conformance suite). JavaScript runs one callback at a time, so each method is atomic.
 */
export class InMemoryTaskRepository implements TaskRepository, TaskQueue {
  private readonly rows = new Map<string, Row>();
  private readonly now: () => number;
  /** credits per account, taken by admission (the Postgres store keeps them in account_quotas) */
  private readonly credits = new Map<string, { limit: number | null; used: number }>();
  private readonly recorded: RecordedTaskEvent[] = [];

  /** usage: where admission writes the creation's usage row (the Postgres store writes it in its transaction) */
  constructor(private readonly opts: { now?: () => number; usage?: UsageLog } = {}) {
    this.now = opts.now ?? Date.now;
  }

  creditsOf(accountId: string): { limit: number | null; used: number } {
    return { ...(this.credits.get(accountId) ?? { limit: null, used: 0 }) };
  }

  /** Test helper: every stored task, whatever its owner. */
  all(): VideoTask[] {
    return [...this.rows.values()].map((r) => copy(r.task));
  }

  /** Test helper: the status events recorded so far (creations and transitions), oldest first; one task's when given. */
  events(taskId?: string): RecordedTaskEvent[] {
    return copy(this.recorded.filter((e) => !taskId || e.taskId === taskId));
  }

  /** Test helper: the worker bookkeeping of one task. */
  leaseOf(id: string): Omit<Row, 'task' | 'request'> | undefined {
    const r = this.rows.get(id);
    return (
      r &&
      copy({
        leaseOwner: r.leaseOwner,
        leaseUntil: r.leaseUntil,
        nextPollAt: r.nextPollAt,
        pollAttempts: r.pollAttempts,
        submitStartedAt: r.submitStartedAt,
      })
    );
  }

  async create(t: NewVideoTask): Promise<VideoTask> {
    if (this.rows.has(t.id)) throw new Error(`duplicate task id ${t.id}`);
    if (
      t.idempotencyKey &&
      [...this.rows.values()].some((r) => r.task.accountId === t.accountId && r.task.idempotencyKey === t.idempotencyKey)
    ) {
      throw new Error('duplicate idempotency key');
    }
    const at = t.createdAt ?? new Date(this.now());
    const { createdAt: _c, request, ...rest } = t;
    const task: VideoTask = {
      ...copy(rest),
      request: taskRequestOf(request),
      deployment: { ...rest.deployment },
      status: 'queued',
      progress: 0,
      error: null,
      delivery: null,
      upstream: null,
      createdAt: at,
      updatedAt: at,
      completedAt: null,
    };
    this.rows.set(t.id, {
      task,
      request: copy(request),
      leaseOwner: null,
      leaseUntil: null,
      nextPollAt: at,
      pollAttempts: 0,
      submitStartedAt: null,
    });
    this.record(t.id, statusEvents('queued', at));
    return copy(task);
  }

  private record(taskId: string, events: TaskStatusEvent[]): void {
    for (const e of events) this.recorded.push({ ...copy(e), taskId });
  }

  async findForAccount(accountId: string, id: string): Promise<VideoTask | null> {
    const r = this.rows.get(id);
    return r && r.task.accountId === accountId ? copy(r.task) : null;
  }

  async findById(id: string): Promise<VideoTask | null> {
    const r = this.rows.get(id);
    return r ? copy(r.task) : null;
  }

  async loadRequest(id: string): Promise<VideoRequest | null> {
    const r = this.rows.get(id);
    return r ? copy(r.request) : null;
  }

  async applyTransition(id: string, decided: TaskTransition): Promise<VideoTask | null> {
    const r = this.rows.get(id);
    if (!r || r.task.status !== decided.from) return null;
    const { endsLease, ...fields } = decided.patch;
    Object.assign(r.task, copy(fields));
    if (endsLease) {
      r.leaseOwner = null;
      r.leaseUntil = null;
    }
    this.record(id, decided.events);
    return copy(r.task);
  }

  async admit(t: NewVideoTask, rules: AdmissionRules): Promise<Admission> {
    const mine = [...this.rows.values()].filter((r) => r.task.accountId === t.accountId);
    if (t.idempotencyKey) {
      const prior = mine.find((r) => r.task.idempotencyKey === t.idempotencyKey);
      if (prior && prior.task.createdAt >= rules.idempotentSince) return { outcome: 'replayed', task: copy(prior.task) };
      if (prior) prior.task.idempotencyKey = null; // stale: the key may be used again
    }
    const active = mine.filter((r) => ACTIVE.includes(r.task.status)).length;
    if (active >= rules.maxActive) return { outcome: 'capped', active };
    const price = rules.price ?? 0;
    const account = this.creditsOf(t.accountId);
    if (price > 0 && account.limit !== null && account.used + price > account.limit) {
      return { outcome: 'unaffordable', used: account.used, limit: account.limit };
    }
    this.credits.set(t.accountId, { ...account, used: account.used + price });
    const task = await this.create(t);
    if (rules.usage) {
      this.opts.usage?.record({ ...rules.usage, taskId: task.id });
      await this.opts.usage?.flush();
    }
    return { outcome: 'created', task };
  }

  async list(accountId: string, f: TaskListFilter): Promise<{ items: VideoTask[]; hasMore: boolean; total: number }> {
    const sign = f.order === 'asc' ? 1 : -1;
    const cmp = (a: VideoTask, b: { createdAt: Date; id: string }) =>
      sign * (a.createdAt.getTime() - b.createdAt.getTime() || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    const matching = [...this.rows.values()]
      .map((r) => r.task)
      .filter(
        (t) =>
          t.accountId === accountId &&
          (!f.status || t.status === f.status) &&
          (!f.model || t.model === f.model) &&
          (!f.ids || f.ids.includes(t.id)) &&
          (!f.keyId || t.keyId === f.keyId),
      )
      .sort((a, b) => cmp(a, b));
    const page = matching.filter((t) => !f.after || cmp(t, f.after) > 0).slice(f.offset ?? 0);
    return { items: page.slice(0, f.limit).map(copy), hasMore: page.length > f.limit, total: matching.length };
  }

  async listAcrossAccounts(f: AllAccountsTaskFilter): Promise<{ items: VideoTask[]; hasMore: boolean }> {
    const newer = (a: { createdAt: Date; id: string }, b: { createdAt: Date; id: string }) =>
      b.createdAt.getTime() - a.createdAt.getTime() || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0);
    const page = [...this.rows.values()]
      .map((r) => r.task)
      .filter(
        (t) =>
          (!f.accountId || t.accountId === f.accountId) &&
          (!f.status || t.status === f.status) &&
          (!f.model || t.model === f.model) &&
          (!f.before || newer(t, f.before) > 0),
      )
      .sort(newer);
    return { items: page.slice(0, f.limit).map(copy), hasMore: page.length > f.limit };
  }

  async deleteFinished(accountId: string, id: string): Promise<VideoTask | null> {
    const r = this.rows.get(id);
    if (!r || r.task.accountId !== accountId || !isTerminal(r.task.status)) return null;
    this.rows.delete(id);
    return copy(r.task);
  }

  async claimDue(o: { owner: string; now: Date; leaseMs: number; limit: number }): Promise<ClaimedTask[]> {
    const due = [...this.rows.values()]
      .filter((r) => ACTIVE.includes(r.task.status) && r.nextPollAt <= o.now && (!r.leaseUntil || r.leaseUntil < o.now))
      .sort((a, b) => a.nextPollAt.getTime() - b.nextPollAt.getTime() || a.task.createdAt.getTime() - b.task.createdAt.getTime())
      .slice(0, o.limit);
    return due.map((r) => {
      r.leaseOwner = o.owner;
      r.leaseUntil = new Date(o.now.getTime() + o.leaseMs);
      return copy({
        task: r.task,
        leaseOwner: o.owner,
        leaseUntil: r.leaseUntil,
        pollAttempts: r.pollAttempts,
        submitStartedAt: r.submitStartedAt,
      });
    });
  }

  private held(id: string, owner: string): Row | undefined {
    const r = this.rows.get(id);
    return r && r.leaseOwner === owner ? r : undefined;
  }

  async extendLease(id: string, owner: string, until: Date): Promise<boolean> {
    const r = this.held(id, owner);
    if (r) r.leaseUntil = until;
    return Boolean(r);
  }

  async markSubmitting(id: string, owner: string, at: Date): Promise<boolean> {
    const r = this.held(id, owner);
    if (!r || r.task.status !== 'queued' || r.task.upstream) return false;
    r.submitStartedAt = at;
    return true;
  }

  async saveOperation(id: string, owner: string, upstream: { provider: string; operation: string }): Promise<VideoTask | null> {
    const r = this.held(id, owner);
    if (!r || r.task.status !== 'queued' || r.task.upstream) return null;
    r.task.upstream = { ...upstream };
    r.task.updatedAt = new Date(this.now());
    r.submitStartedAt = null;
    r.pollAttempts = 0;
    return copy(r.task);
  }

  async release(id: string, owner: string, o: ReleaseOptions): Promise<boolean> {
    const r = this.held(id, owner);
    if (!r) return false;
    r.leaseOwner = null;
    r.leaseUntil = null;
    r.nextPollAt = o.nextPollAt;
    if (o.pollAttempts !== undefined) r.pollAttempts = o.pollAttempts;
    if (o.progress !== undefined && !isTerminal(r.task.status)) r.task.progress = o.progress;
    if (o.clearSubmission) r.submitStartedAt = null;
    return true;
  }

  async expireOverdue(now: Date, limit: number, expire: (task: { status: TaskStatus }) => TaskTransition): Promise<VideoTask[]> {
    const overdue = [...this.rows.values()]
      .filter((r) => ACTIVE.includes(r.task.status) && r.task.createdAt.getTime() + r.task.executionExpiresAfter * 1000 <= now.getTime())
      .slice(0, limit);
    const out: VideoTask[] = [];
    for (const r of overdue) {
      const t = await this.applyTransition(r.task.id, expire(r.task));
      if (t) out.push(t);
    }
    return out;
  }

  async purgeCreatedBefore(cutoff: Date, limit: number): Promise<VideoTask[]> {
    const old = [...this.rows.values()].filter((r) => r.task.createdAt < cutoff).slice(0, limit);
    for (const r of old) this.rows.delete(r.task.id);
    return old.map((r) => copy(r.task));
  }
}
