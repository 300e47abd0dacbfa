/** Admission (idempotency, the active-task cap), listing and deletion. */
import type { VideoTask } from '@gateway/core';
import { at, conformanceTask, moveTask, type TaskConformance } from './task-conformance-fixtures';

export function admissionRules(h: TaskConformance): void {
  const { taskIn } = h;
  it('an idempotency key returns the original task within the window, once per account', async () => {
    const rules = { maxActive: 10, idempotentSince: at(-1000) };
    const a = await h.repo.admit(conformanceTask({ idempotencyKey: 'k-1' }), rules);
    const b = await h.repo.admit(conformanceTask({ idempotencyKey: 'k-1' }), rules);
    expect(a.outcome).toBe('created');
    expect(b).toMatchObject({ outcome: 'replayed', task: { id: (a as { task: VideoTask }).task.id } });
    const c = await h.repo.admit(conformanceTask({ idempotencyKey: 'k-1', accountId: 'acct-b' }), rules);
    expect(c.outcome).toBe('created');
    // Past the window the key starts a new task.
    const d = await h.repo.admit(conformanceTask({ idempotencyKey: 'k-1', createdAt: at(5000) }), {
      maxActive: 10,
      idempotentSince: at(1),
    });
    expect(d.outcome).toBe('created');
    const e = await h.repo.admit(conformanceTask({ idempotencyKey: 'k-1' }), { maxActive: 10, idempotentSince: at(1) });
    expect(e).toMatchObject({ outcome: 'replayed', task: { id: (d as { task: VideoTask }).task.id } });
    expect((await h.repo.list('acct-a', { limit: 10, order: 'asc' })).total).toBe(2);
  });

  it('concurrent creations with one key make one task', async () => {
    const rules = { maxActive: 10, idempotentSince: at(-1000) };
    const results = await Promise.all(
      Array.from({ length: 5 }, (_, i) => (i % 2 ? h.other : h.repo).admit(conformanceTask({ idempotencyKey: 'same' }), rules)),
    );
    expect(results.filter((r) => r.outcome === 'created')).toHaveLength(1);
    expect(new Set(results.map((r) => (r as { task: VideoTask }).task.id)).size).toBe(1);
  });

  it('caps active tasks per account, atomically', async () => {
    const rules = { maxActive: 3, idempotentSince: at(-1000) };
    const results = await Promise.all(Array.from({ length: 6 }, (_, i) => (i % 2 ? h.other : h.repo).admit(conformanceTask(), rules)));
    expect(results.filter((r) => r.outcome === 'created')).toHaveLength(3);
    expect(results.find((r) => r.outcome === 'capped')).toEqual({ outcome: 'capped', active: 3 });
    expect((await h.repo.admit(conformanceTask({ accountId: 'acct-b' }), rules)).outcome).toBe('created');
    const first = results.find((r) => r.outcome === 'created') as { task: VideoTask };
    await moveTask(h.repo, first.task.id, 'queued', 'cancelled');
    expect((await h.repo.admit(conformanceTask(), rules)).outcome).toBe('created');
  });

  it('lists one account in pages, with filters', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 5; i++)
      ids.push(
        (await taskIn(i === 4 ? 'failed' : 'queued', { createdAt: at(i * 1000), model: i === 3 ? 'sim-video-2.5' : 'sim-video-2.0' })).id,
      );
    await taskIn('queued', { accountId: 'acct-b' });
    const p1 = await h.repo.list('acct-a', { limit: 2, order: 'desc' });
    expect(p1.items.map((t) => t.id)).toEqual([ids[4], ids[3]]);
    expect(p1).toMatchObject({ hasMore: true, total: 5 });
    const last = p1.items[1];
    const p2 = await h.repo.list('acct-a', { limit: 2, order: 'desc', after: { createdAt: last!.createdAt, id: last!.id } });
    expect(p2.items.map((t) => t.id)).toEqual([ids[2], ids[1]]);
    const p3 = await h.repo.list('acct-a', { limit: 2, order: 'desc', after: { createdAt: p2.items[1]!.createdAt, id: p2.items[1]!.id } });
    expect(p3).toMatchObject({ hasMore: false });
    expect(p3.items.map((t) => t.id)).toEqual([ids[0]]);
    expect((await h.repo.list('acct-a', { limit: 2, order: 'asc', offset: 2 })).items.map((t) => t.id)).toEqual([ids[2], ids[3]]);
    expect((await h.repo.list('acct-a', { limit: 10, order: 'asc', status: 'failed' })).items.map((t) => t.id)).toEqual([ids[4]]);
    expect((await h.repo.list('acct-a', { limit: 10, order: 'asc', model: 'sim-video-2.5' })).total).toBe(1);
    const byIds = await h.repo.list('acct-a', { limit: 10, order: 'asc', ids: [ids[0]!, ids[2]!, 'task-none'] });
    expect(byIds.items.map((t) => t.id)).toEqual([ids[0], ids[2]]);
    expect((await h.repo.list('acct-c', { limit: 10, order: 'asc' })).items).toEqual([]);
  });

  it("lists every account's tasks newest first, with filters and a cursor (the platform admin's read)", async () => {
    const a0 = await taskIn('queued', { createdAt: at(0) });
    const b1 = await taskIn('succeeded', { accountId: 'acct-b', createdAt: at(1000), model: 'sim-video-2.5' });
    const a2 = await taskIn('failed', { createdAt: at(2000) });
    // two tasks created in the same millisecond are still ordered, by id
    const b3 = await taskIn('queued', { accountId: 'acct-b', createdAt: at(3000) });
    const a3 = await taskIn('queued', { createdAt: at(3000) });
    const tied = [a3, b3].sort((x, y) => (x.id < y.id ? 1 : -1)).map((t) => t.id);
    const p1 = await h.repo.listAcrossAccounts({ limit: 3 });
    expect(p1.items.map((t) => t.id)).toEqual([...tied, a2.id]);
    expect(p1.hasMore).toBe(true);
    const last = p1.items[2]!;
    const p2 = await h.repo.listAcrossAccounts({ limit: 3, before: { createdAt: last.createdAt, id: last.id } });
    expect(p2).toEqual({ items: [expect.objectContaining({ id: b1.id }), expect.objectContaining({ id: a0.id })], hasMore: false });
    const ids = async (f: Partial<Parameters<typeof h.repo.listAcrossAccounts>[0]>) =>
      (await h.repo.listAcrossAccounts({ limit: 10, ...f })).items.map((t) => t.id);
    expect(await ids({ accountId: 'acct-b' })).toEqual([b3.id, b1.id]);
    expect(await ids({ status: 'queued' })).toEqual([...tied, a0.id]);
    expect(await ids({ model: 'sim-video-2.5' })).toEqual([b1.id]);
    expect(await ids({ accountId: 'acct-b', status: 'failed' })).toEqual([]);
  });

  it('lists only the tasks one key created, when asked (a key narrowed to its own tasks)', async () => {
    const mine = await taskIn('queued', { keyId: 'key-own' });
    await taskIn('queued', { keyId: 'key-other' });
    const own = await h.repo.list('acct-a', { limit: 10, order: 'asc', keyId: 'key-own' });
    expect(own.items.map((t) => t.id)).toEqual([mine.id]);
    expect(own.total).toBe(1);
    expect((await h.repo.list('acct-b', { limit: 10, order: 'asc', keyId: 'key-own' })).items).toEqual([]);
  });

  it('deletes only finished tasks of the account', async () => {
    const queued = await taskIn('queued');
    const done = await taskIn('succeeded');
    expect(await h.repo.deleteFinished('acct-a', queued.id)).toBeNull();
    expect(await h.repo.deleteFinished('acct-b', done.id)).toBeNull();
    expect((await h.repo.deleteFinished('acct-a', done.id))?.id).toBe(done.id);
    expect(await h.repo.findById(done.id)).toBeNull();
    expect(await h.repo.findById(queued.id)).not.toBeNull();
  });
}
