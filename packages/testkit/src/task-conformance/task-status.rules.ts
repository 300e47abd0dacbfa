/** Status changes: the core's transition rule as each store persists it, compare-and-set, the lease a terminal state ends, expiry. */
import { canTransition, TASK_STATUSES } from '@gateway/core';
import { at, conformanceTask, ERR, expiryAt, moveTask, PNG, type TaskConformance } from './task-conformance-fixtures';

export function statusRules(h: TaskConformance): void {
  const { taskIn } = h;
  it('creates a queued task and finds it for its account only', async () => {
    const t = await h.repo.create(
      conformanceTask({
        request: { ...conformanceTask().request, firstFrame: { mediaType: 'image/png', data: PNG, width: 2, height: 1 } },
      }),
    );
    expect(t).toMatchObject({ status: 'queued', progress: 0, error: null, delivery: null, upstream: null, completedAt: null });
    expect(t.createdAt.getTime()).toBe(at(0).getTime());
    const found = await h.repo.findForAccount('acct-a', t.id);
    expect(found?.id).toBe(t.id);
    // the task carries the image's shape; its bytes are read for the submission only
    expect(found!.request.firstFrame).toEqual({ mediaType: 'image/png', width: 2, height: 1 });
    expect(Buffer.from((await h.repo.loadRequest(t.id))!.firstFrame!.data)).toEqual(Buffer.from(PNG));
    expect(await h.repo.findForAccount('acct-b', t.id)).toBeNull();
    expect(await h.repo.findForAccount('acct-a', 'task-none')).toBeNull();
    expect((await h.repo.findById(t.id))?.accountId).toBe('acct-a');
  });

  const pairs = TASK_STATUSES.flatMap((from) => TASK_STATUSES.map((to) => [from, to, canTransition(from, to)] as const));

  it.each(pairs)('transition %s → %s (legal: %s)', async (from, to, legal) => {
    const t = await taskIn(from);
    if (legal) {
      const moved = await moveTask(h.repo, t.id, from, to, { progress: 7 });
      expect(moved).toMatchObject({ id: t.id, status: to, progress: 7 });
      expect(moved!.completedAt !== null).toBe(to !== 'running');
    } else {
      await expect(moveTask(h.repo, t.id, from, to)).rejects.toThrow(/cannot move/);
    }
    expect((await h.repo.findById(t.id))!.status).toBe(legal ? to : from);
  });

  it('keeps the deployment chosen at admission', async () => {
    const bound = await h.repo.create(conformanceTask({ deployment: { provider: 'p1', upstreamModel: 'up-1' } }));
    expect((await h.repo.findForAccount('acct-a', bound.id))?.deployment).toEqual({ provider: 'p1', upstreamModel: 'up-1' });
  });

  it('a transition from a status the task is not in changes nothing', async () => {
    const t = await taskIn('running');
    expect(await moveTask(h.repo, t.id, 'queued', 'cancelled')).toBeNull();
    expect((await h.repo.findById(t.id))!.status).toBe('running');
    expect(await moveTask(h.repo, 'task-none', 'queued', 'running')).toBeNull();
  });

  it('of two concurrent updaters exactly one wins', async () => {
    for (let i = 0; i < 8; i++) {
      const t = await taskIn('queued');
      const [a, b] = await Promise.all([moveTask(h.repo, t.id, 'queued', 'running'), moveTask(h.other, t.id, 'queued', 'cancelled')]);
      expect([a, b].filter(Boolean)).toHaveLength(1);
      expect((await h.repo.findById(t.id))!.status).toBe((a ?? b)!.status);
    }
  });

  it('a change sets what the core decides: a terminal state its completion time, a non-terminal one none', async () => {
    const t = await taskIn('queued');
    const running = await moveTask(h.repo, t.id, 'queued', 'running', { progress: 3 });
    expect(running).toMatchObject({ status: 'running', progress: 3, completedAt: null });
    const done = await moveTask(h.repo, t.id, 'running', 'failed', { error: ERR, completedAt: at(42) });
    expect(done).toMatchObject({ status: 'failed', error: ERR, completedAt: at(42) });
  });

  it('a terminal transition ends the lease', async () => {
    const t = await taskIn('running');
    await h.repo.claimDue({ owner: 'w-a', now: at(1000), leaseMs: 10_000, limit: 1 });
    await moveTask(h.repo, t.id, 'running', 'succeeded');
    expect(await h.repo.extendLease(t.id, 'w-a', at(50_000))).toBe(false);
  });

  it('expires active tasks past their deadline', async () => {
    const q = await taskIn('queued', { executionExpiresAfter: 10 });
    const r = await taskIn('running', { executionExpiresAfter: 10 });
    const ok = await taskIn('queued', { executionExpiresAfter: 60 });
    const fin = await taskIn('succeeded', { executionExpiresAfter: 10 });
    expect(await h.repo.expireOverdue(at(9_999), 100, expiryAt(at(9_999)))).toEqual([]);
    const expired = await h.repo.expireOverdue(at(10_000), 100, expiryAt(at(10_000)));
    expect(expired.map((t) => t.id).sort()).toEqual([q.id, r.id].sort());
    expect(expired[0]).toMatchObject({ status: 'expired', error: ERR });
    expect((await h.repo.findById(ok.id))!.status).toBe('queued');
    expect((await h.repo.findById(fin.id))!.status).toBe('succeeded');
  });
}
