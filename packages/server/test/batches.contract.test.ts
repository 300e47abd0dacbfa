import Anthropic from '@anthropic-ai/sdk';
import OpenAI, { toFile } from 'openai';
import request from 'supertest';
import { eventually } from '@gateway/testkit';
import { DEFAULT_CONFIG } from '../src/default-config';
import { betaWebhookEndpoint, webhooksTo } from './support/webhook-settings';
import { ALPHA_KEY, BETA_KEY, startTestGateway, testConfigFile, withPricing, type TestGateway } from './support/test-gateway';
import { startWebhookReceiver, type WebhookReceiver } from './support/webhook-receiver';

// OpenAI batches over the simulator, driven by the runner of a started gateway (a round a second at most: the
// runner is told nothing, it polls). Each line is a request of the key that created the batch.
let gw: TestGateway;
let beta: OpenAI;
let alpha: OpenAI;
let rx: WebhookReceiver;
let secret: string;
const ADMIN = 'sk-admin-batches-0001';

beforeAll(async () => {
  rx = await startWebhookReceiver();
  gw = await startTestGateway({
    config: withPricing(testConfigFile({ models: DEFAULT_CONFIG.models }), {
      'sim-chat': { inputPerMillionTokens: 1000, outputPerMillionTokens: 1000, batchMultiplier: 0.5 },
    }),
    env: {
      batches: { intervalMs: 50 },
      adminKey: ADMIN,
      webhooks: webhooksTo(rx),
    },
  });
  secret = await betaWebhookEndpoint(gw, ADMIN, rx, '/batches', ['batch.completed', 'batch.failed', 'batch.cancelled', 'batch.expired']);
  await gw.startBackground();
  beta = new OpenAI({ apiKey: BETA_KEY, baseURL: `${gw.url}/v1`, maxRetries: 0 });
  alpha = new OpenAI({ apiKey: ALPHA_KEY, baseURL: `${gw.url}/v1`, maxRetries: 0 });
});
afterAll(async () => {
  await gw.stop();
  await rx.close();
});

/** The signed batch events the account's endpoint received for this batch (OpenAI's payload: the batch id only). */
const batchEvents = (id: string) => rx.verified(secret, '/batches').filter((e) => e.data.id === id);

const line = (customId: string, body: Record<string, unknown>, url = '/v1/chat/completions') =>
  JSON.stringify({ custom_id: customId, method: 'POST', url, body });

async function upload(client: OpenAI, lines: string[]) {
  return client.files.create({ file: await toFile(Buffer.from(lines.join('\n') + '\n'), 'batch.jsonl'), purpose: 'batch' });
}

async function settled(client: OpenAI, id: string) {
  for (;;) {
    const b = await client.batches.retrieve(id);
    if (['completed', 'failed', 'expired', 'cancelled'].includes(b.status)) return b;
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function jsonl(client: OpenAI, fileId: string | null | undefined) {
  if (!fileId) return [];
  const text = await (await client.files.content(fileId)).text();
  return text
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));
}

describe('OpenAI batches over the simulator', () => {
  it('runs every line as a chat completion and writes the output file in line order, with usage and batch-priced rows', async () => {
    const file = await upload(beta, [
      line('a', { model: 'sim-chat', messages: [{ role: 'user', content: 'first question' }] }),
      line('b', { model: 'gpt-4o', messages: [{ role: 'user', content: 'second question' }] }),
      line('c', { model: 'sim-chat', messages: [{ role: 'user', content: 'third question' }] }),
    ]);
    const created = await beta.batches.create({
      input_file_id: file.id,
      endpoint: '/v1/chat/completions',
      completion_window: '24h',
      metadata: { job: 'eval' },
    });
    expect(created).toMatchObject({
      object: 'batch',
      status: 'in_progress',
      request_counts: { total: 3, completed: 0, failed: 0 },
      metadata: { job: 'eval' },
    });
    expect(created.id).toMatch(/^batch_/);

    const done = await settled(beta, created.id);
    expect(done.status).toBe('completed');
    expect(done.request_counts).toEqual({ total: 3, completed: 3, failed: 0 });
    expect(done.completed_at).toBeGreaterThanOrEqual(done.created_at);
    expect(done.error_file_id).toBeNull();
    const out = await jsonl(beta, done.output_file_id);
    expect(out.map((l) => l.custom_id)).toEqual(['a', 'b', 'c']);
    for (const l of out) {
      expect(l.id).toMatch(/^batch_req_/);
      expect(l.error).toBeNull();
      expect(l.response.status_code).toBe(200);
      expect(typeof l.response.request_id).toBe('string');
      expect(l.response.body.object).toBe('chat.completion');
    }
    expect(out[1].response.body.choices[0].message.content).toContain('second question');
    const output = await beta.files.retrieve(done.output_file_id!);
    expect(output.purpose).toBe('batch_output');
    await eventually(() => expect(batchEvents(created.id).map((e) => e.type)).toEqual(['batch.completed']), 30_000);
    expect(batchEvents(created.id)[0]).toEqual({
      id: expect.stringMatching(/^evt_/),
      object: 'event',
      type: 'batch.completed',
      created_at: expect.any(Number),
      data: { id: created.id },
    });

    await gw.usage.flush();
    const rows = await gw.db.knex('usage_log').where({ batch_id: created.id });
    expect(rows).toHaveLength(3);
    // usage is the sum of the lines' rows, priced at the batch multiplier (half the live price)
    const again = await beta.batches.retrieve(created.id);
    expect(again.usage!.input_tokens).toBe(rows.reduce((n, r) => n + Number(r.input_tokens), 0));
    expect(again.usage!.input_tokens).toBeGreaterThan(0);
    // /v1/usage filters by the batch: its lines' rows, and their totals, of this account only
    const usageOf = async (key: string) =>
      (await fetch(`${gw.url}/v1/usage?batch_id=${created.id}`, { headers: { authorization: `Bearer ${key}` } }).then((r) => r.json())) as {
        data: Array<{ batch_id: string }>;
      };
    const filtered = await usageOf(BETA_KEY);
    expect(filtered.data.map((r) => r.batch_id)).toEqual([created.id, created.id, created.id]);
    expect((await usageOf(ALPHA_KEY)).data).toEqual([]);
    const row = rows[0]!;
    const live = ((Number(row.input_tokens) + Number(row.output_tokens)) * 1000) / 1e6;
    expect(Number(row.credits)).toBeCloseTo(live / 2, 6);
  });

  it('fails a batch with a refused line before any work: the line numbers and reasons, nothing sent', async () => {
    const file = await upload(beta, [
      line('ok', { model: 'sim-chat', messages: [{ role: 'user', content: 'hi' }] }),
      'not json',
      line('ok', { model: 'sim-chat', messages: [{ role: 'user', content: 'dup' }] }),
      line('url', { model: 'sim-chat', messages: [] }, '/v1/embeddings'),
      line('model', { model: 'no-such-model', messages: [{ role: 'user', content: 'hi' }] }),
      line('schema', { model: 'sim-chat', messages: 'not a list' }),
    ]);
    const b = await beta.batches.create({ input_file_id: file.id, endpoint: '/v1/chat/completions', completion_window: '24h' });
    expect(b.status).toBe('failed');
    expect(b.failed_at).not.toBeNull();
    const errors = b.errors!.data!;
    expect(errors.map((e) => [e.line, e.code])).toEqual([
      [2, 'invalid_json_line'],
      [3, 'duplicate_custom_id'],
      [4, 'mismatched_url'],
      [5, 'model_not_found'],
      [6, 'invalid_request'],
    ]);
    await gw.usage.flush();
    expect(await gw.db.knex('usage_log').where({ batch_id: b.id })).toHaveLength(0);
    await eventually(() => expect(batchEvents(b.id).map((e) => e.type)).toEqual(['batch.failed']), 30_000);
  });

  it("keeps batches to their account: another account's batch is a missing batch", async () => {
    const file = await upload(beta, [line('x', { model: 'sim-chat', messages: [{ role: 'user', content: 'hi' }] })]);
    const b = await beta.batches.create({ input_file_id: file.id, endpoint: '/v1/chat/completions', completion_window: '24h' });
    await expect(alpha.batches.retrieve(b.id)).rejects.toMatchObject({ status: 404 });
    await expect(
      alpha.batches.create({ input_file_id: file.id, endpoint: '/v1/chat/completions', completion_window: '24h' }),
    ).rejects.toMatchObject({
      status: 404,
    });
    const page = await beta.batches.list({ limit: 100 });
    expect(page.data.some((x) => x.id === b.id)).toBe(true);
    const theirs = await alpha.batches.list();
    expect(theirs.data.some((x) => x.id === b.id)).toBe(false);
    await settled(beta, b.id);
  });

  it('answers a line its endpoint refuses in the error file, with the status and body a client would have got', async () => {
    const file = await upload(beta, [
      line('fine', { model: 'sim-chat', messages: [{ role: 'user', content: 'hi' }] }),
      // passes the schema; sim-chat's efforts stop at "high", which only the call itself checks
      line('effort', { model: 'sim-chat', messages: [{ role: 'user', content: 'hi' }], reasoning_effort: 'xhigh' }),
    ]);
    const b = await beta.batches.create({ input_file_id: file.id, endpoint: '/v1/chat/completions', completion_window: '24h' });
    expect(b.status).toBe('in_progress');
    const done = await settled(beta, b.id);
    expect(done.request_counts).toEqual({ total: 2, completed: 1, failed: 1 });
    const [err] = await jsonl(beta, done.error_file_id);
    expect(err.custom_id).toBe('effort');
    expect(err.error).toBeNull();
    expect(err.response.status_code).toBe(400);
    expect(err.response.body.error.param).toBe('reasoning_effort');
    expect((await jsonl(beta, done.output_file_id)).map((l) => l.custom_id)).toEqual(['fine']);
  });

  it('embeddings lines answer the embeddings object', async () => {
    const file = await upload(beta, [line('e', { input: 'hello', model: 'text-embedding-3-small' }, '/v1/embeddings')]);
    const b = await beta.batches.create({ input_file_id: file.id, endpoint: '/v1/embeddings', completion_window: '24h' });
    const [out] = await jsonl(beta, (await settled(beta, b.id)).output_file_id);
    expect(out.response.body).toMatchObject({ object: 'list', data: [{ object: 'embedding', index: 0 }] });
  });
});

describe('one line at a time: cancel and the budget', () => {
  let slow: TestGateway;
  let client: OpenAI;
  beforeAll(async () => {
    // one line at a time, each after a pause: a batch stays in progress long enough to cancel
    slow = await startTestGateway({
      config: withPricing(testConfigFile({ models: DEFAULT_CONFIG.models }), {
        'sim-chat': { inputPerMillionTokens: 1000, outputPerMillionTokens: 1000 },
      }),
      env: { batches: { intervalMs: 50, concurrencyPerAccount: 1, lineDelayMs: 300 }, adminKey: ADMIN, keyCacheTtlMs: 0, quotaCacheMs: 0 },
    });
    await slow.startBackground();
    client = new OpenAI({ apiKey: BETA_KEY, baseURL: `${slow.url}/v1`, maxRetries: 0 });
  });
  afterAll(() => slow.stop());

  it('cancel stops new lines: the batch ends cancelled, the lines not run are batch_cancelled in the error file', async () => {
    const lines = Array.from({ length: 6 }, (_, i) =>
      line(`q${i}`, { model: 'sim-chat', messages: [{ role: 'user', content: `question ${i}` }] }),
    );
    const file = await upload(client, lines);
    const b = await client.batches.create({ input_file_id: file.id, endpoint: '/v1/chat/completions', completion_window: '24h' });
    const cancelling = await client.batches.cancel(b.id);
    expect(['cancelling', 'cancelled']).toContain(cancelling.status);
    expect(cancelling.cancelling_at).not.toBeNull();
    const done = await settled(client, b.id);
    expect(done.status).toBe('cancelled');
    expect(done.cancelled_at).not.toBeNull();
    const ran = await jsonl(client, done.output_file_id);
    const unrun = await jsonl(client, done.error_file_id);
    expect(ran.length).toBeLessThan(6);
    expect(ran.length + unrun.length).toBe(6);
    for (const l of unrun) expect(l).toMatchObject({ response: null, error: { code: 'batch_cancelled' } });
    expect(done.request_counts!.total).toBe(6);
  });

  it("stops taking lines once the key's budget is used up: the rest end quota_exhausted in the error file, never sent", async () => {
    const key = await request(slow.app)
      .post('/admin/keys')
      .set('Authorization', `Bearer ${ADMIN}`)
      .send({ account: 'beta', group: 'vip', budget: { credit_limit: 0.01, period: 'daily' } });
    expect(key.status).toBe(201);
    const budgeted = new OpenAI({ apiKey: key.body.key, baseURL: `${slow.url}/v1`, maxRetries: 0 });
    const lines = Array.from({ length: 4 }, (_, i) =>
      line(`b${i}`, { model: 'sim-chat', messages: [{ role: 'user', content: `a question ${i}` }] }),
    );
    const b = await budgeted.batches.create({
      input_file_id: (await upload(budgeted, lines)).id,
      endpoint: '/v1/chat/completions',
      completion_window: '24h',
    });
    const done = await settled(budgeted, b.id);
    expect(done.status).toBe('completed');
    const unrun = await jsonl(budgeted, done.error_file_id);
    expect(unrun.length).toBeGreaterThanOrEqual(1);
    for (const l of unrun) expect(l).toMatchObject({ response: null, error: { code: 'quota_exhausted' } });
    expect((await jsonl(budgeted, done.output_file_id)).length + unrun.length).toBe(4);
    await slow.usage.flush();
    const sent = await slow.db.knex('usage_log').where({ batch_id: b.id, status: 'ok' });
    expect(sent.length).toBe(4 - unrun.length);
  });
});

describe('the completion window (BATCH_COMPLETION_WINDOW_MS)', () => {
  it('a batch whose window ran out before its lines ends expired, every line batch_expired', async () => {
    const short = await startTestGateway({
      config: testConfigFile({ models: DEFAULT_CONFIG.models }),
      env: { batches: { intervalMs: 50, windowMs: 1 } },
    });
    try {
      await short.startBackground();
      const client = new OpenAI({ apiKey: BETA_KEY, baseURL: `${short.url}/v1`, maxRetries: 0 });
      const file = await upload(client, [line('late', { model: 'sim-chat', messages: [{ role: 'user', content: 'hi' }] })]);
      const b = await client.batches.create({ input_file_id: file.id, endpoint: '/v1/chat/completions', completion_window: '24h' });
      const done = await settled(client, b.id);
      expect(done.status).toBe('expired');
      expect(done.expired_at).not.toBeNull();
      expect(await jsonl(client, done.error_file_id)).toEqual([
        expect.objectContaining({ custom_id: 'late', response: null, error: expect.objectContaining({ code: 'batch_expired' }) }),
      ]);
    } finally {
      await short.stop();
    }
  });
});

describe('Anthropic message batches (@anthropic-ai/sdk) on the same engine', () => {
  const anthropic = () => new Anthropic({ apiKey: BETA_KEY, baseURL: gw.url, maxRetries: 0 });
  const ask = (text: string, model = 'claude-sonnet-4-5') => ({
    model,
    max_tokens: 64,
    messages: [{ role: 'user' as const, content: text }],
  });

  async function ended(id: string) {
    for (;;) {
      const b = await anthropic().messages.batches.retrieve(id);
      if (b.processing_status === 'ended') return b;
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  it('creates, runs, lists, reads the results JSONL and deletes a batch', async () => {
    const client = anthropic();
    const created = await client.messages.batches.create({
      requests: [
        { custom_id: 'one', params: ask('first question') },
        { custom_id: 'two', params: ask('second question') },
        // passes the schema; only the call checks a thinking budget against max_tokens
        { custom_id: 'bad', params: { ...ask('third'), thinking: { type: 'enabled', budget_tokens: 1024 } } },
      ],
    });
    expect(created).toMatchObject({ type: 'message_batch', processing_status: 'in_progress', results_url: null });
    expect(created.id).toMatch(/^msgbatch_/);
    const done = await ended(created.id);
    expect(done.request_counts).toEqual({ processing: 0, succeeded: 2, errored: 1, canceled: 0, expired: 0 });
    expect(done.results_url).toBe(`https://gateway.test/v1/messages/batches/${created.id}/results`);
    expect(done.ended_at).not.toBeNull();

    // results_url names the public base URL; read it here through the gateway under test
    const text = await fetch(`${gw.url}/v1/messages/batches/${created.id}/results`, { headers: { 'x-api-key': BETA_KEY } }).then((r) =>
      r.text(),
    );
    const results = text
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(results.map((r) => [r.custom_id, r.result.type])).toEqual([
      ['one', 'succeeded'],
      ['two', 'succeeded'],
      ['bad', 'errored'],
    ]);
    expect(results[0].result.message).toMatchObject({ type: 'message', role: 'assistant' });
    expect(results[2].result.error).toMatchObject({ type: 'error', error: { type: 'invalid_request_error' } });

    const listed = await client.messages.batches.list({ limit: 100 });
    expect(listed.data.map((b) => b.id)).toContain(created.id);
    // the two formats keep to their own batches
    expect((await beta.batches.list({ limit: 100 })).data.some((b) => b.id === created.id)).toBe(false);
    await expect(beta.batches.retrieve(created.id)).rejects.toMatchObject({ status: 404 });

    expect(await client.messages.batches.delete(created.id)).toEqual({ id: created.id, type: 'message_batch_deleted' });
    await expect(client.messages.batches.retrieve(created.id)).rejects.toMatchObject({ status: 404 });
  });

  it('pages the list newest first: after_id gives the page after the cursor, before_id the page just before it', async () => {
    const client = anthropic();
    for (const n of [1, 2, 3, 4]) await client.messages.batches.create({ requests: [{ custom_id: `p${n}`, params: ask('page me') }] });
    // the account's whole list, whatever other tests left in it: the pages are checked against it
    const all = (await client.messages.batches.list({ limit: 1000 })).data.map((b) => b.id);
    expect(all.length).toBeGreaterThanOrEqual(4);
    const at = all.length - 1;
    const back = await client.messages.batches.list({ before_id: all[at], limit: 2 });
    expect(back.data.map((b) => b.id)).toEqual(all.slice(at - 2, at));
    expect(back).toMatchObject({ first_id: all[at - 2], last_id: all[at - 1], has_more: at - 2 > 0 });
    const top = await client.messages.batches.list({ before_id: all[2], limit: 2 });
    expect(top.data.map((b) => b.id)).toEqual(all.slice(0, 2));
    expect(top.has_more).toBe(false);
    const on = await client.messages.batches.list({ after_id: all[0], limit: 2 });
    expect(on.data.map((b) => b.id)).toEqual(all.slice(1, 3));
    expect(on.has_more).toBe(all.length > 3);
  });

  it('refuses a request the key may not make, naming its index, in Anthropic shape, before any work', async () => {
    const err = await anthropic()
      .messages.batches.create({
        requests: [
          { custom_id: 'a', params: ask('hi') },
          { custom_id: 'b', params: ask('hi', 'no-such-model') },
        ],
      })
      .then(
        () => undefined,
        (e: unknown) => e as { status: number; error: { type: string; error: { type: string; message: string } } },
      );
    expect(err).toMatchObject({
      status: 400,
      error: { type: 'error', error: { type: 'invalid_request_error', message: expect.stringContaining('requests.1.params') } },
    });
    expect(err?.error.error.message).toContain('no-such-model');
  });
});
