import type { Batch, LineOutcome } from '@gateway/core';
import { encodeBatchInfo, encodeGeminiBatch, inlinedResponse, inlinedResponses } from './batch.codec';

const at = new Date('2026-01-02T03:04:05.000Z');
const later = new Date('2026-01-02T03:05:00.000Z');

function batch(over: Partial<Batch> = {}): Batch {
  return {
    id: 'gembatch_000000001abc',
    accountId: 'a',
    keyId: 'k',
    endpoint: '/v1beta/models/{model}:generateContent',
    inputFileId: '',
    completionWindow: '24h',
    status: 'in_progress',
    metadata: encodeBatchInfo({ displayName: 'run', model: 'models/sim-chat', requestMetadata: [{ key: 'a' }, null, { key: 'c' }] }),
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
    expiresAt: new Date(at.getTime() + 86_400_000),
    counts: { total: 3, completed: 1, failed: 0 },
    usage: { inputTokens: 0, cachedTokens: 0, outputTokens: 0, reasoningTokens: 0 },
    ...over,
  };
}

async function* outcomes(list: Array<LineOutcome | null>) {
  for (const [i, outcome] of list.entries()) yield { customId: String(i + 1), outcome };
}

describe('a batch as Gemini’s Operation', () => {
  it('running: RUNNING, int64 stats with the pending ones, no output, not done', () => {
    expect(encodeGeminiBatch(batch())).toEqual({
      name: 'batches/gembatch_000000001abc',
      metadata: {
        '@type': 'type.googleapis.com/google.ai.generativelanguage.v1main.GenerateContentBatch',
        model: 'models/sim-chat',
        displayName: 'run',
        createTime: at.toISOString(),
        updateTime: at.toISOString(),
        batchStats: { requestCount: '3', successfulRequestCount: '1', failedRequestCount: '0', pendingRequestCount: '2' },
        state: 'BATCH_STATE_RUNNING',
        name: 'batches/gembatch_000000001abc',
      },
      done: false,
    });
  });

  it('cancelled: done, CANCELLED, the requests never run counted as failed, the output in metadata and response', async () => {
    const b = batch({ status: 'cancelled', cancellingAt: at, cancelledAt: later });
    const answer = { candidates: [{ content: { role: 'model', parts: [{ text: 'hi' }] } }] };
    const list = await inlinedResponses(b, outcomes([{ kind: 'answered', statusCode: 200, requestId: 'r1', body: answer }, null, null]));
    const op = encodeGeminiBatch(b, list);
    expect(op.done).toBe(true);
    expect(op.metadata).toMatchObject({
      state: 'BATCH_STATE_CANCELLED',
      endTime: later.toISOString(),
      updateTime: later.toISOString(),
      batchStats: { requestCount: '3', successfulRequestCount: '1', failedRequestCount: '2', pendingRequestCount: '0' },
      output: { inlinedResponses: { inlinedResponses: list } },
    });
    expect(op.response).toEqual({
      '@type': 'type.googleapis.com/google.ai.generativelanguage.v1main.GenerateContentBatchOutput',
      inlinedResponses: { inlinedResponses: list },
    });
    expect(list).toEqual([
      { response: answer, metadata: { key: 'a' } },
      { error: { code: 1, message: expect.stringContaining('cancelled') } },
      { error: { code: 1, message: expect.stringContaining('cancelled') }, metadata: { key: 'c' } },
    ]);
  });
});

describe('one inlined response', () => {
  const b = batch({ status: 'completed', completedAt: later });
  it.each([
    [{ kind: 'answered', statusCode: 400, requestId: 'r', body: { error: { code: 400, message: 'bad part' } } }, 3, 'bad part'],
    [{ kind: 'answered', statusCode: 404, requestId: 'r', body: { error: { message: 'no model' } } }, 5, 'no model'],
    [{ kind: 'answered', statusCode: 502, requestId: 'r', body: 'upstream said no' }, 13, 'upstream said no'],
    [{ kind: 'unrun', code: 'quota_exhausted', message: 'budget used up' }, 8, 'budget used up'],
    [{ kind: 'unrun', code: 'interrupted', message: 'stopped' }, 10, 'stopped'],
    [{ kind: 'unrun', code: 'batch_expired', message: 'expired' }, 4, 'expired'],
  ] as Array<[LineOutcome, number, string]>)('%j → google.rpc code %i', (outcome, code, message) => {
    expect(inlinedResponse(outcome, { key: 'x' }, b)).toEqual({ error: { code, message }, metadata: { key: 'x' } });
  });

  it('an expired batch’s request that never ran is DEADLINE_EXCEEDED', () => {
    expect(inlinedResponse(null, null, batch({ status: 'expired', expiredAt: later }))).toEqual({
      error: { code: 4, message: expect.stringContaining('expired') },
    });
  });
});
