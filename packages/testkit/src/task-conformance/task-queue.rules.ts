/** The worker's side: claims, leases, releases, submissions, what a claim carries, purges. */
import { at, conformanceTask, type TaskConformance } from './task-conformance-fixtures';

export function queueRules(h: TaskConformance): void {
  const { taskIn } = h;
  it('two concurrent claimers never get the same task', async () => {
    for (let i = 0; i < 20; i++) await taskIn(i % 2 ? 'queued' : 'running');
    const now = at(1000);
    const [a, b] = await Promise.all([
      h.repo.claimDue({ owner: 'w-a', now, leaseMs: 30_000, limit: 15 }),
      h.other.claimDue({ owner: 'w-b', now, leaseMs: 30_000, limit: 15 }),
    ]);
    const ids = [...a, ...b].map((c) => c.task.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.length).toBe(20);
    expect(a.every((c) => c.leaseOwner === 'w-a' && c.leaseUntil.getTime() === now.getTime() + 30_000)).toBe(true);
    expect(await h.repo.claimDue({ owner: 'w-c', now, leaseMs: 30_000, limit: 50 })).toEqual([]);
  });

  it('claims only active, due, unleased tasks, and a lapsed lease can be reclaimed', async () => {
    const due = await taskIn('queued');
    const later = await taskIn('queued', { createdAt: at(60_000) });
    await taskIn('succeeded');
    await taskIn('cancelled');
    const [first] = await h.repo.claimDue({ owner: 'w-a', now: at(1000), leaseMs: 10_000, limit: 10 });
    expect(first!.task.id).toBe(due.id);
    expect(await h.repo.claimDue({ owner: 'w-b', now: at(5000), leaseMs: 10_000, limit: 10 })).toEqual([]);
    const [again] = await h.other.claimDue({ owner: 'w-b', now: at(11_001), leaseMs: 10_000, limit: 10 });
    expect(again!.task.id).toBe(due.id);
    // The first owner lost its lease: none of its lease-bound writes land any more.
    expect(await h.repo.extendLease(due.id, 'w-a', at(99_000))).toBe(false);
    expect(await h.repo.markSubmitting(due.id, 'w-a', at(11_002))).toBe(false);
    expect(await h.repo.saveOperation(due.id, 'w-a', { provider: 'p', operation: 'op' })).toBeNull();
    expect(await h.repo.release(due.id, 'w-a', { nextPollAt: at(0) })).toBe(false);
    expect(await h.repo.extendLease(due.id, 'w-b', at(90_000))).toBe(true);
    expect(await h.repo.claimDue({ owner: 'w-c', now: at(30_000), leaseMs: 10_000, limit: 10 })).toEqual([]);
    const late = await h.repo.claimDue({ owner: 'w-c', now: at(60_000), leaseMs: 10_000, limit: 10 });
    expect(late.map((c) => c.task.id)).toEqual([later.id]);
  });

  it("a claim carries the input images' shapes, not their bytes; loadRequest reads them for the submission", async () => {
    const image = (n: number) => ({ mediaType: 'image/png' as const, data: new Uint8Array([n, 1, 2, 3]), width: 64, height: 32 });
    const request = { ...conformanceTask().request, referenceImages: Array.from({ length: 30 }, (_, n) => image(n)) };
    const t = await h.repo.create(conformanceTask({ request }));
    const [claim] = await h.repo.claimDue({ owner: 'w-a', now: at(1000), leaseMs: 10_000, limit: 1 });
    expect(claim!.task.request.referenceImages).toHaveLength(30);
    expect(claim!.task.request.referenceImages!.every((i) => !('data' in i) && i.width === 64)).toBe(true);
    const loaded = await h.repo.loadRequest(t.id);
    expect(loaded!.referenceImages!.map((i) => Buffer.from(i.data)[0])).toEqual(Array.from({ length: 30 }, (_, n) => n));
    expect(loaded).toMatchObject({ prompt: 'a red fox', durationSeconds: 5 });
    expect(await h.repo.loadRequest('task-none')).toBeNull();
  });

  it('release schedules the next look and records poll attempts and progress', async () => {
    const t = await taskIn('running');
    await h.repo.claimDue({ owner: 'w-a', now: at(1000), leaseMs: 10_000, limit: 1 });
    expect(await h.repo.release(t.id, 'w-a', { nextPollAt: at(5000), pollAttempts: 3, progress: 40 })).toBe(true);
    expect(await h.repo.claimDue({ owner: 'w-a', now: at(4999), leaseMs: 10_000, limit: 1 })).toEqual([]);
    const [c] = await h.repo.claimDue({ owner: 'w-b', now: at(5000), leaseMs: 10_000, limit: 1 });
    expect(c).toMatchObject({ pollAttempts: 3, submitStartedAt: null });
    expect(c!.task.progress).toBe(40);
  });

  it('records a submission, then its operation ref, once', async () => {
    const t = await taskIn('queued');
    await h.repo.claimDue({ owner: 'w-a', now: at(1000), leaseMs: 10_000, limit: 1 });
    expect(await h.repo.markSubmitting(t.id, 'w-a', at(1500))).toBe(true);
    const [lapsed] = await h.repo.claimDue({ owner: 'w-b', now: at(20_000), leaseMs: 10_000, limit: 1 });
    expect(lapsed!.submitStartedAt?.getTime()).toBe(at(1500).getTime());
    const saved = await h.repo.saveOperation(t.id, 'w-b', { provider: 'sim', operation: 'op-1' });
    expect(saved).toMatchObject({ status: 'queued', upstream: { provider: 'sim', operation: 'op-1' } });
    expect(await h.repo.saveOperation(t.id, 'w-b', { provider: 'sim', operation: 'op-2' })).toBeNull();
    expect(await h.repo.markSubmitting(t.id, 'w-b', at(21_000))).toBe(false);
    expect((await h.repo.findById(t.id))!.upstream!.operation).toBe('op-1');
    await h.repo.release(t.id, 'w-b', { nextPollAt: at(21_000) });
    const [next] = await h.repo.claimDue({ owner: 'w-c', now: at(21_000), leaseMs: 10_000, limit: 1 });
    expect(next!.submitStartedAt).toBeNull();
  });

  it('purges tasks created before the cutoff', async () => {
    const old = await taskIn('succeeded', { createdAt: at(-8 * 86_400_000) });
    const oldActive = await taskIn('queued', { createdAt: at(-8 * 86_400_000) });
    const recent = await taskIn('succeeded', { createdAt: at(-86_400_000) });
    const purged = await h.repo.purgeCreatedBefore(at(-7 * 86_400_000), 100);
    expect(purged.map((t) => t.id).sort()).toEqual([old.id, oldActive.id].sort());
    expect(await h.repo.findById(old.id)).toBeNull();
    expect(await h.repo.findById(recent.id)).not.toBeNull();
    expect(await h.repo.purgeCreatedBefore(at(-7 * 86_400_000), 100)).toEqual([]);
  });
}
