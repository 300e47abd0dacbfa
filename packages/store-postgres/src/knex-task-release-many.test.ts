import { KnexTaskRepository } from './knex-task-repository';
import { describeOnTestDatabases } from '../test/test-databases';
import { videoTask } from '../test/video-task';

describeOnTestDatabases((target) => {
  describe(`KnexTaskRepository.releaseMany (${target.name})`, () => {
    it('releases many leases in one write, only those still held by the owner, with each task its own next time', async () => {
      const db = await target.open();
      try {
        const repo = new KnexTaskRepository(db.knex);
        const now = new Date('2026-01-01T00:00:00Z');
        for (const id of ['t1', 't2', 't3']) await repo.create(videoTask(id, { createdAt: now }));
        const claimed = await repo.claimDue({ owner: 'w1', now, leaseMs: 30_000, limit: 3 });
        expect(claimed).toHaveLength(3);
        await repo.markSubmitting('t3', 'w1', now);
        // t2's lease is taken over by another worker (its lease ran out): w1 must not release it.
        await db.knex('video_tasks').where({ id: 't2' }).update({ lease_owner: 'w2' });
        const at = (s: number) => new Date(now.getTime() + s * 1000);
        const held = await repo.releaseMany('w1', [
          { id: 't1', opts: { nextPollAt: at(5), pollAttempts: 4, progress: 40 } },
          { id: 't2', opts: { nextPollAt: at(6) } },
          { id: 't3', opts: { nextPollAt: at(7), clearSubmission: true } },
        ]);
        expect([...held].sort()).toEqual(['t1', 't3']);
        const rows = await db
          .knex('video_tasks')
          .orderBy('id')
          .select('id', 'lease_owner', 'next_poll_at', 'poll_attempts', 'progress', 'submit_started_at');
        expect(
          rows.map((r) => [
            r.id,
            r.lease_owner,
            new Date(r.next_poll_at).getTime() - now.getTime(),
            r.poll_attempts,
            r.progress,
            r.submit_started_at,
          ]),
        ).toEqual([
          ['t1', null, 5000, 4, 40, null],
          ['t2', 'w2', 0, 0, 0, null],
          ['t3', null, 7000, 0, 0, null],
        ]);
        expect(await repo.releaseMany('w1', [])).toEqual(new Set());
      } finally {
        await db.drop();
      }
    });
  });
});
