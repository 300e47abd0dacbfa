import {
  TASK_STATUSES,
  canTransition,
  newId,
  type NewVideoTask,
  type TaskQueue,
  type TaskRepository,
  type TaskStatus,
  type VideoTask,
} from '@gateway/core';

export type TaskStore = TaskRepository & TaskQueue;

export interface TaskRepositoryHarness {
  repo: TaskStore;
  /** a second handle on the same data, as another process would hold (defaults to repo) */
  other?: TaskStore;
  /** empties the store; runs before every test */
  reset(): Promise<void>;
  done(): Promise<void>;
}

const T0 = new Date('2026-03-01T00:00:00Z');
const at = (ms: number) => new Date(T0.getTime() + ms);
const ERR = { code: 'expired', message: 'expired in conformance' };
const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 1, 2, 255]);

export function conformanceTask(over: Partial<NewVideoTask> = {}): NewVideoTask {
  return {
    id: newId('task'),
    accountId: 'acct-a',
    keyId: 'key-a',
    model: 'sim-video-2.0',
    format: 'conformance',
    request: {
      model: 'sim-video-2.0',
      prompt: 'a red fox',
      durationSeconds: 5,
      resolution: '720p',
      aspectRatio: 'adaptive',
      generateAudio: true,
      fps: 24,
    },
    priority: 0,
    serviceTier: 'default',
    executionExpiresAfter: 3600,
    idempotencyKey: null,
    createdAt: T0,
    ...over,
  };
}

/** The path from queued to `status` through legal moves. */
function pathTo(status: TaskStatus): TaskStatus[] {
  if (status === 'queued') return [];
  return canTransition('queued', status) ? [status] : ['running', status];
}

/** Every TaskRepository + TaskQueue adapter runs this suite (the in-memory fake included). */
export function describeTaskRepositoryConformance(name: string, make: () => Promise<TaskRepositoryHarness>): void {
  describe(`TaskRepository conformance: ${name}`, () => {
    let h: TaskRepositoryHarness;
    let repo: TaskStore;
    let other: TaskStore;
    beforeAll(async () => {
      h = await make();
    });
    afterAll(async () => h.done());
    beforeEach(async () => {
      await h.reset();
      repo = h.repo;
      other = h.other ?? h.repo;
    });

    async function taskIn(status: TaskStatus, over: Partial<NewVideoTask> = {}): Promise<VideoTask> {
      let t = await repo.create(conformanceTask(over));
      for (const s of pathTo(status)) t = (await repo.transition(t.id, t.status, s))!;
      return t;
    }

    it('creates a queued task and finds it for its account only', async () => {
      const t = await repo.create(
        conformanceTask({
          request: { ...conformanceTask().request, firstFrame: { mediaType: 'image/png', data: PNG, width: 2, height: 1 } },
        }),
      );
      expect(t).toMatchObject({ status: 'queued', progress: 0, error: null, delivery: null, upstream: null, completedAt: null });
      expect(t.createdAt.getTime()).toBe(T0.getTime());
      const found = await repo.findForAccount('acct-a', t.id);
      expect(found?.id).toBe(t.id);
      expect(Buffer.from(found!.request.firstFrame!.data)).toEqual(Buffer.from(PNG));
      expect(await repo.findForAccount('acct-b', t.id)).toBeNull();
      expect(await repo.findForAccount('acct-a', 'task-none')).toBeNull();
      expect((await repo.findById(t.id))?.accountId).toBe('acct-a');
    });

    const pairs = TASK_STATUSES.flatMap((from) => TASK_STATUSES.map((to) => [from, to, canTransition(from, to)] as const));
    it.each(pairs)('transition %s → %s (legal: %s)', async (from, to, legal) => {
      const t = await taskIn(from);
      if (legal) {
        const moved = await repo.transition(t.id, from, to, { progress: 7 });
        expect(moved).toMatchObject({ id: t.id, status: to, progress: 7 });
        expect(moved!.completedAt !== null).toBe(to !== 'running');
      } else {
        await expect(repo.transition(t.id, from, to)).rejects.toThrow(/cannot move/);
      }
      expect((await repo.findById(t.id))!.status).toBe(legal ? to : from);
    });

    it('keeps the deployment chosen at admission; a task without one reads as null', async () => {
      const bound = await repo.create(conformanceTask({ deployment: { provider: 'p1', upstreamModel: 'up-1' } }));
      expect((await repo.findForAccount('acct-a', bound.id))?.deployment).toEqual({ provider: 'p1', upstreamModel: 'up-1' });
      const legacy = await repo.create(conformanceTask());
      expect((await repo.findForAccount('acct-a', legacy.id))?.deployment).toBeNull();
    });

    it('a transition from a status the task is not in changes nothing', async () => {
      const t = await taskIn('running');
      expect(await repo.transition(t.id, 'queued', 'cancelled')).toBeNull();
      expect((await repo.findById(t.id))!.status).toBe('running');
      expect(await repo.transition('task-none', 'queued', 'running')).toBeNull();
    });

    it('of two concurrent updaters exactly one wins', async () => {
      for (let i = 0; i < 8; i++) {
        const t = await taskIn('queued');
        const [a, b] = await Promise.all([repo.transition(t.id, 'queued', 'running'), other.transition(t.id, 'queued', 'cancelled')]);
        expect([a, b].filter(Boolean)).toHaveLength(1);
        expect((await repo.findById(t.id))!.status).toBe((a ?? b)!.status);
      }
    });

    it('two concurrent claimers never get the same task', async () => {
      for (let i = 0; i < 20; i++) await taskIn(i % 2 ? 'queued' : 'running');
      const now = at(1000);
      const [a, b] = await Promise.all([
        repo.claimDue({ owner: 'w-a', now, leaseMs: 30_000, limit: 15 }),
        other.claimDue({ owner: 'w-b', now, leaseMs: 30_000, limit: 15 }),
      ]);
      const ids = [...a, ...b].map((c) => c.task.id);
      expect(new Set(ids).size).toBe(ids.length);
      expect(ids.length).toBe(20);
      expect(a.every((c) => c.leaseOwner === 'w-a' && c.leaseUntil.getTime() === now.getTime() + 30_000)).toBe(true);
      expect(await repo.claimDue({ owner: 'w-c', now, leaseMs: 30_000, limit: 50 })).toEqual([]);
    });

    it('claims only active, due, unleased tasks, and a lapsed lease can be reclaimed', async () => {
      const due = await taskIn('queued');
      const later = await taskIn('queued', { createdAt: at(60_000) });
      await taskIn('succeeded');
      await taskIn('cancelled');
      const [first] = await repo.claimDue({ owner: 'w-a', now: at(1000), leaseMs: 10_000, limit: 10 });
      expect(first!.task.id).toBe(due.id);
      expect(await repo.claimDue({ owner: 'w-b', now: at(5000), leaseMs: 10_000, limit: 10 })).toEqual([]);
      const [again] = await other.claimDue({ owner: 'w-b', now: at(11_001), leaseMs: 10_000, limit: 10 });
      expect(again!.task.id).toBe(due.id);
      // The first owner lost its lease: none of its lease-bound writes land any more.
      expect(await repo.extendLease(due.id, 'w-a', at(99_000))).toBe(false);
      expect(await repo.markSubmitting(due.id, 'w-a', at(11_002))).toBe(false);
      expect(await repo.saveOperation(due.id, 'w-a', { provider: 'p', operation: 'op' })).toBeNull();
      expect(await repo.release(due.id, 'w-a', { nextPollAt: at(0) })).toBe(false);
      expect(await repo.extendLease(due.id, 'w-b', at(90_000))).toBe(true);
      expect(await repo.claimDue({ owner: 'w-c', now: at(30_000), leaseMs: 10_000, limit: 10 })).toEqual([]);
      const late = await repo.claimDue({ owner: 'w-c', now: at(60_000), leaseMs: 10_000, limit: 10 });
      expect(late.map((c) => c.task.id)).toEqual([later.id]);
    });

    it('release schedules the next look and records poll attempts and progress', async () => {
      const t = await taskIn('running');
      await repo.claimDue({ owner: 'w-a', now: at(1000), leaseMs: 10_000, limit: 1 });
      expect(await repo.release(t.id, 'w-a', { nextPollAt: at(5000), pollAttempts: 3, progress: 40 })).toBe(true);
      expect(await repo.claimDue({ owner: 'w-a', now: at(4999), leaseMs: 10_000, limit: 1 })).toEqual([]);
      const [c] = await repo.claimDue({ owner: 'w-b', now: at(5000), leaseMs: 10_000, limit: 1 });
      expect(c).toMatchObject({ pollAttempts: 3, submitStartedAt: null });
      expect(c!.task.progress).toBe(40);
    });

    it('records a submission, then its operation ref, once', async () => {
      const t = await taskIn('queued');
      await repo.claimDue({ owner: 'w-a', now: at(1000), leaseMs: 10_000, limit: 1 });
      expect(await repo.markSubmitting(t.id, 'w-a', at(1500))).toBe(true);
      const [lapsed] = await repo.claimDue({ owner: 'w-b', now: at(20_000), leaseMs: 10_000, limit: 1 });
      expect(lapsed!.submitStartedAt?.getTime()).toBe(at(1500).getTime());
      const saved = await repo.saveOperation(t.id, 'w-b', { provider: 'sim', operation: 'op-1' });
      expect(saved).toMatchObject({ status: 'queued', upstream: { provider: 'sim', operation: 'op-1' } });
      expect(await repo.saveOperation(t.id, 'w-b', { provider: 'sim', operation: 'op-2' })).toBeNull();
      expect(await repo.markSubmitting(t.id, 'w-b', at(21_000))).toBe(false);
      expect((await repo.findById(t.id))!.upstream!.operation).toBe('op-1');
      await repo.release(t.id, 'w-b', { nextPollAt: at(21_000) });
      const [next] = await repo.claimDue({ owner: 'w-c', now: at(21_000), leaseMs: 10_000, limit: 1 });
      expect(next!.submitStartedAt).toBeNull();
    });

    it('a terminal transition ends the lease', async () => {
      const t = await taskIn('running');
      await repo.claimDue({ owner: 'w-a', now: at(1000), leaseMs: 10_000, limit: 1 });
      await repo.transition(t.id, 'running', 'succeeded');
      expect(await repo.extendLease(t.id, 'w-a', at(50_000))).toBe(false);
    });

    it('an idempotency key returns the original task within the window, once per account', async () => {
      const rules = { maxActive: 10, idempotentSince: at(-1000) };
      const a = await repo.admit(conformanceTask({ idempotencyKey: 'k-1' }), rules);
      const b = await repo.admit(conformanceTask({ idempotencyKey: 'k-1' }), rules);
      expect(a.outcome).toBe('created');
      expect(b).toMatchObject({ outcome: 'replayed', task: { id: (a as { task: VideoTask }).task.id } });
      const c = await repo.admit(conformanceTask({ idempotencyKey: 'k-1', accountId: 'acct-b' }), rules);
      expect(c.outcome).toBe('created');
      // Past the window the key starts a new task.
      const d = await repo.admit(conformanceTask({ idempotencyKey: 'k-1', createdAt: at(5000) }), {
        maxActive: 10,
        idempotentSince: at(1),
      });
      expect(d.outcome).toBe('created');
      const e = await repo.admit(conformanceTask({ idempotencyKey: 'k-1' }), { maxActive: 10, idempotentSince: at(1) });
      expect(e).toMatchObject({ outcome: 'replayed', task: { id: (d as { task: VideoTask }).task.id } });
      expect((await repo.list('acct-a', { limit: 10, order: 'asc' })).total).toBe(2);
    });

    it('concurrent creations with one key make one task', async () => {
      const rules = { maxActive: 10, idempotentSince: at(-1000) };
      const results = await Promise.all(
        Array.from({ length: 5 }, (_, i) => (i % 2 ? other : repo).admit(conformanceTask({ idempotencyKey: 'same' }), rules)),
      );
      expect(results.filter((r) => r.outcome === 'created')).toHaveLength(1);
      expect(new Set(results.map((r) => (r as { task: VideoTask }).task.id)).size).toBe(1);
    });

    it('caps active tasks per account, atomically', async () => {
      const rules = { maxActive: 3, idempotentSince: at(-1000) };
      const results = await Promise.all(Array.from({ length: 6 }, (_, i) => (i % 2 ? other : repo).admit(conformanceTask(), rules)));
      expect(results.filter((r) => r.outcome === 'created')).toHaveLength(3);
      expect(results.find((r) => r.outcome === 'capped')).toEqual({ outcome: 'capped', active: 3 });
      expect((await repo.admit(conformanceTask({ accountId: 'acct-b' }), rules)).outcome).toBe('created');
      const first = results.find((r) => r.outcome === 'created') as { task: VideoTask };
      await repo.transition(first.task.id, 'queued', 'cancelled');
      expect((await repo.admit(conformanceTask(), rules)).outcome).toBe('created');
    });

    it('lists one account in pages, with filters', async () => {
      const ids: string[] = [];
      for (let i = 0; i < 5; i++)
        ids.push(
          (await taskIn(i === 4 ? 'failed' : 'queued', { createdAt: at(i * 1000), model: i === 3 ? 'sim-video-2.5' : 'sim-video-2.0' })).id,
        );
      await taskIn('queued', { accountId: 'acct-b' });
      const p1 = await repo.list('acct-a', { limit: 2, order: 'desc' });
      expect(p1.items.map((t) => t.id)).toEqual([ids[4], ids[3]]);
      expect(p1).toMatchObject({ hasMore: true, total: 5 });
      const last = p1.items[1];
      const p2 = await repo.list('acct-a', { limit: 2, order: 'desc', after: { createdAt: last!.createdAt, id: last!.id } });
      expect(p2.items.map((t) => t.id)).toEqual([ids[2], ids[1]]);
      const p3 = await repo.list('acct-a', { limit: 2, order: 'desc', after: { createdAt: p2.items[1]!.createdAt, id: p2.items[1]!.id } });
      expect(p3).toMatchObject({ hasMore: false });
      expect(p3.items.map((t) => t.id)).toEqual([ids[0]]);
      expect((await repo.list('acct-a', { limit: 2, order: 'asc', offset: 2 })).items.map((t) => t.id)).toEqual([ids[2], ids[3]]);
      expect((await repo.list('acct-a', { limit: 10, order: 'asc', status: 'failed' })).items.map((t) => t.id)).toEqual([ids[4]]);
      expect((await repo.list('acct-a', { limit: 10, order: 'asc', model: 'sim-video-2.5' })).total).toBe(1);
      const byIds = await repo.list('acct-a', { limit: 10, order: 'asc', ids: [ids[0]!, ids[2]!, 'task-none'] });
      expect(byIds.items.map((t) => t.id)).toEqual([ids[0], ids[2]]);
      expect((await repo.list('acct-c', { limit: 10, order: 'asc' })).items).toEqual([]);
    });

    it('lists only the tasks one key created, when asked (a key narrowed to its own tasks)', async () => {
      const mine = await taskIn('queued', { keyId: 'key-own' });
      await taskIn('queued', { keyId: 'key-other' });
      const own = await repo.list('acct-a', { limit: 10, order: 'asc', keyId: 'key-own' });
      expect(own.items.map((t) => t.id)).toEqual([mine.id]);
      expect(own.total).toBe(1);
      expect((await repo.list('acct-b', { limit: 10, order: 'asc', keyId: 'key-own' })).items).toEqual([]);
    });

    it('deletes only finished tasks of the account', async () => {
      const queued = await taskIn('queued');
      const done = await taskIn('succeeded');
      expect(await repo.deleteFinished('acct-a', queued.id)).toBeNull();
      expect(await repo.deleteFinished('acct-b', done.id)).toBeNull();
      expect((await repo.deleteFinished('acct-a', done.id))?.id).toBe(done.id);
      expect(await repo.findById(done.id)).toBeNull();
      expect(await repo.findById(queued.id)).not.toBeNull();
    });

    it('expires active tasks past their deadline', async () => {
      const q = await taskIn('queued', { executionExpiresAfter: 10 });
      const r = await taskIn('running', { executionExpiresAfter: 10 });
      const ok = await taskIn('queued', { executionExpiresAfter: 60 });
      const fin = await taskIn('succeeded', { executionExpiresAfter: 10 });
      expect(await repo.expireOverdue(at(9_999), 100, ERR)).toEqual([]);
      const expired = await repo.expireOverdue(at(10_000), 100, ERR);
      expect(expired.map((t) => t.id).sort()).toEqual([q.id, r.id].sort());
      expect(expired[0]).toMatchObject({ status: 'expired', error: ERR });
      expect((await repo.findById(ok.id))!.status).toBe('queued');
      expect((await repo.findById(fin.id))!.status).toBe('succeeded');
    });

    it('purges tasks created before the cutoff', async () => {
      const old = await taskIn('succeeded', { createdAt: at(-8 * 86_400_000) });
      const oldActive = await taskIn('queued', { createdAt: at(-8 * 86_400_000) });
      const recent = await taskIn('succeeded', { createdAt: at(-86_400_000) });
      const purged = await repo.purgeCreatedBefore(at(-7 * 86_400_000), 100);
      expect(purged.map((t) => t.id).sort()).toEqual([old.id, oldActive.id].sort());
      expect(await repo.findById(old.id)).toBeNull();
      expect(await repo.findById(recent.id)).not.toBeNull();
      expect(await repo.purgeCreatedBefore(at(-7 * 86_400_000), 100)).toEqual([]);
    });
  });
}
