import type { Batch, BatchLineInput } from '@gateway/core';
import { KnexBatchStore } from './knex-batch-store';
import { describeOnTestDatabases, type TestDatabaseTarget } from '../test/test-databases';

const NOW = new Date('2026-03-01T00:00:00Z');
const at = (ms: number) => new Date(NOW.getTime() + ms);
const LEASE = 30_000;

function batch(id: string, accountId: string, total: number): Batch {
  return {
    id,
    accountId,
    keyId: `key-${accountId}`,
    endpoint: '/v1/chat/completions',
    inputFileId: 'file-x',
    completionWindow: '24h',
    status: 'in_progress',
    metadata: null,
    errors: null,
    outputFileId: null,
    errorFileId: null,
    createdAt: NOW,
    inProgressAt: NOW,
    finalizingAt: null,
    completedAt: null,
    failedAt: null,
    expiredAt: null,
    cancellingAt: null,
    cancelledAt: null,
    expiresAt: at(86_400_000),
    counts: { total, completed: 0, failed: 0 },
    usage: { inputTokens: 0, cachedTokens: 0, outputTokens: 0, reasoningTokens: 0 },
  };
}

const lines = (n: number): BatchLineInput[] =>
  Array.from({ length: n }, (_, i) => ({ line: i + 1, customId: `c${i + 1}`, body: { model: 'm', messages: [] } }));
const answered = { kind: 'answered', statusCode: 200, requestId: 'r', body: { ok: true } } as const;

describeOnTestDatabases((target) =>
  describe(`KnexBatchStore on ${target.name}`, () => {
    let db: Awaited<ReturnType<TestDatabaseTarget['open']>>;
    let store: KnexBatchStore;
    beforeAll(async () => {
      db = await target.open();
      store = new KnexBatchStore(db.knex);
    });
    afterAll(async () => db.drop());

    /** the lines of one batch a runner leases (the tests share a database: other tests' batches are left out) */
    const claim = async (owner: string, batchId: string, now = NOW) =>
      (await store.claimLines({ owner, now, leaseMs: LEASE, limit: 10, perAccount: 2 })).filter((l) => l.batchId === batchId);
    const finishable = async (owner: string, batchId: string) =>
      (await store.claimFinished({ owner, now: NOW, leaseMs: LEASE, limit: 10 })).filter((b) => b.id === batchId);

    it('leases at most perAccount lines of one account over every runner, and never the same line twice', async () => {
      await store.create(batch('batch_a', 'acct-a', 5), lines(5));
      const first = await claim('runner-1', 'batch_a');
      expect(first.map((l) => l.line)).toEqual([1, 2]);
      expect(first[0]).toMatchObject({
        batchId: 'batch_a',
        customId: 'c1',
        keyId: 'key-acct-a',
        endpoint: '/v1/chat/completions',
        attempts: 1,
      });
      // the account is at its limit for every other runner
      expect(await claim('runner-2', 'batch_a')).toEqual([]);
      expect(await store.finishLine('runner-1', first[0]!, answered)).toBe(true);
      // one slot free: the next line in order
      expect((await claim('runner-2', 'batch_a')).map((l) => l.line)).toEqual([3]);
    });

    it('answers a line once: a runner that lost its lease changes nothing; a lease run out ends the line interrupted', async () => {
      await store.create(batch('batch_b', 'acct-b', 2), lines(2));
      const [a, b] = await claim('dead-runner', 'batch_b');
      // the runner died: its leases run out, and the lines it held are interrupted, never sent again
      const later = await claim('live-runner', 'batch_b', at(LEASE + 1));
      expect(later).toEqual([]);
      expect(await store.finishLine('dead-runner', a!, answered)).toBe(false);
      const outcomes = [];
      for await (const o of store.outcomes('batch_b')) outcomes.push(o);
      expect(outcomes.map((o) => [o.customId, o.outcome && 'code' in o.outcome ? o.outcome.code : null])).toEqual([
        ['c1', 'interrupted'],
        ['c2', 'interrupted'],
      ]);
      expect(b).toBeDefined();
      const read = await store.get('acct-b', 'batch_b');
      expect(read!.counts).toEqual({ total: 2, completed: 0, failed: 2 });
    });

    it('a deferred line is not sent again before its time, and its attempt is given back', async () => {
      await store.create(batch('batch_c', 'acct-c', 1), lines(1));
      const [l] = await claim('r', 'batch_c');
      await store.deferLine('r', l!, at(5000));
      expect(await claim('r', 'batch_c', at(1000))).toEqual([]);
      const again = await claim('r', 'batch_c', at(6000));
      expect(again.map((x) => [x.line, x.attempts])).toEqual([[1, 1]]);
    });

    it('finishes a batch once all its lines are answered, for one finalizer, and keeps batches to their account', async () => {
      await store.create(batch('batch_d', 'acct-d', 1), lines(1));
      const [l] = await claim('r', 'batch_d');
      expect(await finishable('f1', 'batch_d')).toEqual([]);
      await store.finishLine('r', l!, answered);
      const ready = await finishable('f1', 'batch_d');
      expect(ready).toHaveLength(1);
      expect(ready[0]).toMatchObject({ status: 'finalizing', counts: { total: 1, completed: 1, failed: 0 } });
      expect(await store.finish('f2', 'batch_d', { status: 'completed', outputFileId: 'file-o', errorFileId: null }, NOW)).toBe(false);
      expect(await store.finish('f1', 'batch_d', { status: 'completed', outputFileId: 'file-o', errorFileId: null }, NOW)).toBe(true);
      expect(await store.get('acct-d', 'batch_d')).toMatchObject({ status: 'completed', outputFileId: 'file-o', completedAt: NOW });
      expect(await store.get('acct-other', 'batch_d')).toBeNull();
      expect(await store.list('acct-other', { prefix: 'batch_', limit: 10 })).toEqual([]);
    });

    it('lists newest first: after pages on, before gives the page just before the cursor', async () => {
      for (const n of [1, 2, 3, 4, 5]) await store.create(batch(`batch_list${n}`, 'acct-list', 0), []);
      const ids = async (q: { after?: string; before?: string; limit: number }) =>
        (await store.list('acct-list', { prefix: 'batch_', ...q })).map((b) => b.id.slice('batch_list'.length));
      expect(await ids({ limit: 2 })).toEqual(['5', '4']);
      expect(await ids({ after: 'batch_list4', limit: 2 })).toEqual(['3', '2']);
      expect(await ids({ before: 'batch_list2', limit: 2 })).toEqual(['4', '3']);
      expect(await ids({ before: 'batch_list4', limit: 2 })).toEqual(['5']);
      expect(await ids({ before: 'batch_list1', after: 'batch_list5', limit: 10 })).toEqual(['4', '3', '2']);
    });

    it('a cancelled batch stops giving lines', async () => {
      await store.create(batch('batch_e', 'acct-e', 3), lines(3));
      expect((await store.requestCancel('acct-e', 'batch_e', NOW))!.status).toBe('cancelling');
      expect(await claim('r', 'batch_e')).toEqual([]);
      const [done] = await finishable('f', 'batch_e');
      expect(done?.cancellingAt).toEqual(NOW);
    });
  }),
);
