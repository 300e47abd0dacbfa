import { KnexTaskRepository } from './knex-task-repository';
import { CLAIM_COLUMNS } from './task-row.codec';
import { describeOnTestDatabases } from '../test/test-databases';
import { videoTask } from '../test/video-task';

describeOnTestDatabases((target) => {
  describe(`KnexTaskRepository.claimDue (${target.name})`, () => {
    it('returns only the columns a claim reads, and the claimed task whole', async () => {
      const db = await target.open();
      try {
        const repo = new KnexTaskRepository(db.knex);
        const now = new Date('2026-01-01T00:00:00Z');
        await repo.create(videoTask('t1', { idempotencyKey: 'idem-1', callbackUrl: 'https://example.com/hook', createdAt: now }));
        const returned: string[][] = [];
        db.knex.on('query-response', (response: { rows?: Array<Record<string, unknown>> }, query: { sql: string }) => {
          if (/^update video_tasks t set lease_owner/.test(query.sql.trim())) returned.push(Object.keys(response.rows?.[0] ?? {}));
        });
        const [claim] = await repo.claimDue({ owner: 'w1', now, leaseMs: 30_000, limit: 1 });

        expect(returned).toEqual([[...CLAIM_COLUMNS]]);
        expect(returned[0]).not.toEqual(expect.arrayContaining(['next_poll_at']));
        expect(returned[0]).not.toEqual(expect.arrayContaining(['billing_state']));
        expect(claim).toEqual({
          task: await repo.findById('t1'),
          leaseOwner: 'w1',
          leaseUntil: new Date(now.getTime() + 30_000),
          pollAttempts: 0,
          submitStartedAt: null,
        });
      } finally {
        await db.drop();
      }
    });
  });
});
