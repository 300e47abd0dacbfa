import express from 'express';
import request from 'supertest';
import {
  GatewayError,
  ModelCatalogue,
  ResponsesConversation,
  TextGeneration,
  StoredConversations,
  type ConversationStore,
  type StoredTurn,
  type TextModelPort,
  type TextStreamPart,
  type UsageRow,
} from '@gateway/core';
import { formatRouter } from '@gateway/http-kit';
import { openAiResponsesFormat } from './responses.format';

/** A port that streams two text parts and then fails: the mid-stream failure the simulator cannot make. */
const failingPort: TextModelPort = {
  async generate() {
    throw new GatewayError('upstream_unavailable', 'down');
  },
  async *stream(): AsyncGenerator<TextStreamPart> {
    yield { type: 'text-delta', delta: 'Hello ' };
    yield { type: 'text-delta', delta: 'wor' };
    throw new GatewayError('upstream_error', 'The upstream connection broke.', { code: 'upstream_broken' });
  },
};

function setup() {
  const saved: StoredTurn[] = [];
  const rows: UsageRow[] = [];
  const store: ConversationStore = {
    async save(r) {
      saved.push(r);
    },
    async find(a, kind, id) {
      return saved.find((r) => r.accountId === a && r.kind === kind && r.id === id) ?? null;
    },
    async delete() {
      return false;
    },
    async purgeCreatedBefore() {
      return 0;
    },
  };
  const catalogue = new ModelCatalogue(
    [{ id: 'flaky', kind: 'text', deployments: [{ provider: 'p', upstreamModel: 'flaky', priority: 0, weight: 1 }] }],
    [{ name: 'g', models: ['*'] }],
  );
  const text = new TextGeneration({
    catalogue,
    providers: { text: () => failingPort },
    usage: { record: (r) => rows.push(r), flush: async () => {} },
  });
  const app = express();
  app.use((_req, res, next) => {
    res.locals.requestId = 'req_1';
    next();
  });
  app.use(
    formatRouter(
      openAiResponsesFormat,
      {
        text,
        responsesConversation: new ResponsesConversation({ text, conversations: new StoredConversations(store) }),
        usage: { record: (r) => rows.push(r), flush: async () => {} },
        compactionSecret: 'unit-test-secret-0001',
      },
      async () => ({ accountId: 'acct', keyId: 'k', group: 'g' }),
    ),
  );
  return { app, saved, rows };
}

function events(body: string): Array<{ event: string; data: any }> {
  return body
    .trim()
    .split('\n\n')
    .map((block) => {
      const [e, d] = block.split('\n');
      return { event: e!.replace(/^event: /, ''), data: JSON.parse(d!.replace(/^data: /, '')) };
    });
}

describe('responses router with an upstream that fails mid-stream', () => {
  it('streams what it had, then an error event and response.failed; nothing is stored', async () => {
    const { app, saved, rows } = setup();
    const res = await request(app)
      .post('/v1/responses')
      .set('Authorization', 'Bearer x')
      .send({ model: 'flaky', input: 'hi', stream: true });
    expect(res.status).toBe(200);
    const ev = events(res.text);
    for (const e of ev) expect(e.data.type).toBe(e.event);
    expect(ev.map((e) => e.event)).toEqual([
      'response.created',
      'response.in_progress',
      'response.output_item.added',
      'response.content_part.added',
      'response.output_text.delta',
      'response.output_text.delta',
      'error',
      'response.failed',
    ]);
    expect(ev.map((e) => e.data.sequence_number)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    expect(ev[6]!.data).toEqual({
      type: 'error',
      code: 'upstream_broken',
      message: 'The upstream connection broke.',
      param: null,
      sequence_number: 6,
    });
    expect(ev[7]!.data.response).toMatchObject({ status: 'failed', error: { code: 'upstream_broken' } });
    expect(saved).toHaveLength(0);
    expect(rows).toEqual([expect.objectContaining({ format: 'openai-responses', status: 'error', errorCode: 'upstream_broken' })]);
  });

  it('a non-streaming failure is a plain OpenAI error and stores nothing', async () => {
    const { app, saved } = setup();
    const res = await request(app).post('/v1/responses').set('Authorization', 'Bearer x').send({ model: 'flaky', input: 'hi' });
    expect(res.status).toBe(503);
    expect(res.body).toEqual({ error: { message: 'down', type: 'service_unavailable', param: '', code: 'upstream_unavailable' } });
    expect(saved).toHaveLength(0);
  });
});
