import type { Batch, LineOutcome } from '../batch';
import type { BatchStore, ClaimedLine } from '../ports/batch-store.port';
import type { Files } from './files';
import { BatchRunner, type LineAnswer } from './batch-runner';

/** Just enough of a batch store for one runner: lines leased, deferred until a time, finished; one batch. */
function memoryStore(batch: Batch, n: number) {
  const lines = Array.from({ length: n }, (_, i) => ({
    line: i + 1,
    status: 'pending' as 'pending' | 'running' | 'done',
    notBefore: 0,
    outcome: null as LineOutcome | null,
  }));
  const deferredUntil: number[] = [];
  const store: Partial<BatchStore> = {
    async claimLines({ now, limit }) {
      if (batch.status !== 'in_progress') return [];
      const due = lines.filter((l) => l.status === 'pending' && l.notBefore <= now.getTime()).slice(0, limit);
      return due.map((l): ClaimedLine => {
        l.status = 'running';
        return {
          batchId: batch.id,
          line: l.line,
          customId: `c${l.line}`,
          body: {},
          attempts: 1,
          accountId: 'a',
          keyId: 'k',
          endpoint: '/v1/messages',
        };
      });
    },
    async extendLeases() {},
    async finishLine(_owner, l, outcome) {
      Object.assign(lines[l.line - 1]!, { status: 'done', outcome });
      return true;
    },
    async deferLine(_owner, l, notBefore) {
      Object.assign(lines[l.line - 1]!, { status: 'pending', notBefore: notBefore.getTime() });
      deferredUntil.push(notBefore.getTime());
    },
    async claimFinished() {
      const running = lines.some((l) => l.status === 'running');
      const pending = lines.some((l) => l.status === 'pending');
      const ready = (batch.status === 'in_progress' && !pending && !running) || (batch.status === 'cancelling' && !running);
      if (!ready) return [];
      batch.status = 'finalizing';
      const done = lines.filter((l) => l.outcome);
      batch.counts = { total: n, completed: done.filter((l) => l.outcome!.kind === 'answered').length, failed: 0 };
      return [batch];
    },
    async *outcomes() {
      for (const l of lines) yield { customId: `c${l.line}`, outcome: l.outcome };
    },
    async finish(_owner, _id, end) {
      batch.status = end.status;
      return true;
    },
    async get() {
      return batch;
    },
  };
  return { store: store as BatchStore, lines, deferredUntil };
}

function messageBatch(): Batch {
  const at = new Date(0);
  return {
    id: 'msgbatch_000000000runnertest01',
    accountId: 'a',
    keyId: 'k',
    endpoint: '/v1/messages',
    inputFileId: '',
    completionWindow: '24h',
    status: 'in_progress',
    metadata: null,
    errors: null,
    outputFileId: null,
    errorFileId: null,
    createdAt: at,
    inProgressAt: at,
    finalizingAt: null,
    completedAt: null,
    failedAt: null,
    expiredAt: null,
    cancellingAt: null,
    cancelledAt: null,
    expiresAt: new Date(86_400_000),
    counts: { total: 2, completed: 0, failed: 0 },
    usage: { inputTokens: 0, cachedTokens: 0, outputTokens: 0, reasoningTokens: 0 },
  };
}

const OK: LineAnswer = { statusCode: 200, requestId: 'r', body: { type: 'message' } };
const SLOW_DOWN: LineAnswer = { statusCode: 429, requestId: 'r', body: { type: 'error', error: { type: 'rate_limit_error' } } };

function runner(store: BatchStore, answer: () => LineAnswer, clock: { t: number }) {
  const noFile = (): never => {
    throw new Error('a message batch writes no file');
  };
  const files = { write: noFile } as unknown as Files;
  return new BatchRunner(
    { batches: store, files, dispatch: { send: async () => answer() }, now: () => clock.t, readable: noFile },
    { owner: 'runner-1', perAccount: 8, limit: 8, leaseMs: 30_000, lineDelayMs: 0, backoffMs: 1_000 },
  );
}

const live = new AbortController().signal;

describe('the batch runner forgets the backoff of lines that have ended', () => {
  it('keeps doubling the wait of a line the upstream keeps slowing down, and forgets the line once it is answered', async () => {
    const clock = { t: 0 };
    const batch = messageBatch();
    const { store, deferredUntil } = memoryStore(batch, 2);
    let answer = SLOW_DOWN;
    const r = runner(store, () => answer, clock);
    await r.tick(live);
    expect(deferredUntil).toEqual([1_000, 1_000]);
    clock.t = 1_000;
    await r.tick(live);
    expect(deferredUntil.slice(2)).toEqual([3_000, 3_000]);
    expect(r.deferredLines).toBe(2);
    answer = OK;
    clock.t = 3_000;
    await r.tick(live);
    expect(r.deferredLines).toBe(0);
    expect(batch.status).toBe('completed');
  });

  it('forgets every waiting line of a batch cancelled while they wait', async () => {
    const clock = { t: 0 };
    const batch = messageBatch();
    const { store, lines } = memoryStore(batch, 2);
    const r = runner(store, () => SLOW_DOWN, clock);
    await r.tick(live);
    expect(r.deferredLines).toBe(2);
    batch.status = 'cancelling';
    batch.cancellingAt = new Date(clock.t);
    await r.tick(live);
    expect(batch.status).toBe('cancelled');
    expect(lines.map((l) => l.status)).toEqual(['pending', 'pending']);
    expect(r.deferredLines).toBe(0);
  });

  it('forgets the waiting lines of a batch another instance ended, once none of them came back for ten minutes', async () => {
    const clock = { t: 0 };
    const batch = messageBatch();
    const { store } = memoryStore(batch, 2);
    const r = runner(store, () => SLOW_DOWN, clock);
    await r.tick(live);
    batch.status = 'cancelled'; // finalized elsewhere: this runner never sees the batch again
    clock.t = 9 * 60_000;
    await r.tick(live);
    expect(r.deferredLines).toBe(2);
    clock.t = 10 * 60_000 + 1;
    await r.tick(live);
    expect(r.deferredLines).toBe(0);
  });
});
