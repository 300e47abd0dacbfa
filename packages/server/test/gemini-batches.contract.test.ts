import { GoogleGenAI, JobState, type BatchJob } from '@google/genai';
import request from 'supertest';
import { eventually } from '@gateway/testkit';
import { DEFAULT_CONFIG } from '../src/default-config';
import { capturedLog } from './support/captured-log';
import { betaWebhookEndpoint, webhooksTo } from './support/webhook-settings';
import { ALPHA_KEY, BETA_KEY, startTestGateway, testConfigFile, type TestGateway } from './support/test-gateway';
import { startWebhookReceiver, type WebhookReceiver } from './support/webhook-receiver';

// Gemini's batch mode over the simulator on the batch engine: @google/genai's batches.* against a started gateway
// (3.x calls /v1 by default; apiVersion v1beta as 2.x does), and the wire shapes with supertest.
let gw: TestGateway;
let rx: WebhookReceiver;
let secret: string;
const ADMIN = 'sk-admin-gemini-batches-01';
const ENDED = new Set<string>([
  JobState.JOB_STATE_SUCCEEDED,
  JobState.JOB_STATE_CANCELLED,
  JobState.JOB_STATE_FAILED,
  JobState.JOB_STATE_EXPIRED,
]);

/** Jest's vm context lacks Node's undici dispatcher: the SDK gets the global fetch. */
const genai = (url: string, apiKey = BETA_KEY, apiVersion?: string) =>
  new GoogleGenAI({ apiKey, httpOptions: { baseUrl: url, fetch: (u, init) => fetch(u, init), ...(apiVersion ? { apiVersion } : {}) } });

async function settled(ai: GoogleGenAI, name: string): Promise<BatchJob> {
  for (;;) {
    const job = await ai.batches.get({ name });
    if (ENDED.has(job.state!)) return job;
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** One inlined request as the wire carries it. */
const inlined = (text: string, key: string) => ({ request: { contents: [{ role: 'user', parts: [{ text }] }] }, metadata: { key } });

beforeAll(async () => {
  rx = await startWebhookReceiver();
  gw = await startTestGateway({
    config: testConfigFile({ models: DEFAULT_CONFIG.models }),
    env: {
      // a pause before each line, so that the cancel test sees its batch running
      batches: { intervalMs: 50, lineDelayMs: 200 },
      adminKey: ADMIN,
      webhooks: webhooksTo(rx),
    },
  });
  secret = await betaWebhookEndpoint(gw, ADMIN, rx, '/gemini', ['batch.completed', 'batch.cancelled']);
  await gw.startBackground();
});
afterAll(async () => {
  await gw.stop();
  await rx.close();
});

/** The signed batch events the account's endpoint received for this batch. */
const batchEvents = (id: string) => rx.verified(secret, '/gemini').filter((e) => e.data.id === id);

describe('@google/genai batches with inlined requests', () => {
  it.each([
    ['3.x default (/v1)', undefined],
    ['v1beta', 'v1beta'],
  ])('%s: create, get until SUCCEEDED, read the inlined responses in request order with their metadata', async (_, version) => {
    const ai = genai(gw.url, BETA_KEY, version);
    const created = await ai.batches.create({
      model: 'gemini-2.5-flash',
      src: [
        { contents: [{ role: 'user', parts: [{ text: 'first question' }] }], metadata: { key: 'one' } },
        { contents: 'second question', config: { temperature: 0.2, systemInstruction: 'Be brief.' } },
      ],
      config: { displayName: 'eval run' },
    });
    expect(created.name).toMatch(/^batches\/gembatch_/);
    expect(created.displayName).toBe('eval run');
    expect(created.model).toBe('models/gemini-2.5-flash');
    expect([JobState.JOB_STATE_PENDING, JobState.JOB_STATE_RUNNING]).toContain(created.state);

    const done = await settled(ai, created.name!);
    expect(done.state).toBe(JobState.JOB_STATE_SUCCEEDED);
    expect(done.endTime).toBeDefined();
    const responses = done.dest!.inlinedResponses!;
    expect(responses).toHaveLength(2);
    expect(responses[0]!.metadata).toEqual({ key: 'one' });
    const textOf = (i: number) => responses[i]!.response!.candidates![0]!.content!.parts![0]!.text;
    expect(textOf(0)).toContain('first question');
    expect(responses[1]!.metadata).toBeUndefined();
    expect(textOf(1)).toContain('second question');
    expect(responses[1]!.response!.usageMetadata?.promptTokenCount).toBeGreaterThan(0);

    // each request was a routed call of this key: its usage row names the batch
    const id = created.name!.split('/')[1]!;
    await gw.usage.flush();
    expect(await gw.db.knex('usage_log').where({ batch_id: id })).toHaveLength(2);
    await eventually(() => expect(batchEvents(id).map((e) => e.type)).toEqual(['batch.completed']), 30_000);

    // GET /v1/batches is OpenAI's list: batches.list pages under /v1beta
    const listed: string[] = [];
    for await (const job of await genai(gw.url, BETA_KEY, 'v1beta').batches.list({ config: { pageSize: 1 } })) listed.push(job.name!);
    expect(listed).toContain(created.name);

    await ai.batches.delete({ name: created.name! });
    await expect(ai.batches.get({ name: created.name! })).rejects.toMatchObject({ status: 404 });
  });

  it('refuses a request the key may not make before any work, naming the request, in Google’s error shape', async () => {
    const ai = genai(gw.url, ALPHA_KEY);
    const before = await gw.db.knex('batches').count<{ n: string }[]>({ n: '*' });
    const err = await ai.batches.create({ model: 'no-such-model', src: [{ contents: 'hi' }] }).then(
      () => undefined,
      (e: { status: number; message: string }) => e,
    );
    expect(err?.status).toBe(400);
    expect(err?.message).toContain('batch.inputConfig.requests.requests[0] (request 1)');
    expect(err?.message).toContain('no-such-model');
    expect(await gw.db.knex('batches').count<{ n: string }[]>({ n: '*' })).toEqual(before);

    const bad = await request(gw.app)
      .post('/v1beta/models/sim-chat:batchGenerateContent')
      .set('x-goog-api-key', BETA_KEY)
      .send({ batch: { inputConfig: { requests: { requests: [inlined('ok', 'a'), { request: { contents: [] } }] } } } });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatchObject({ code: 400, status: 'INVALID_ARGUMENT' });
    expect(bad.body.error.message).toContain('batch.inputConfig.requests.requests[1] (request 2)');
  });

  it("keeps batches to their account: another account's batch is 404, and OpenAI's routes do not see it", async () => {
    const created = await genai(gw.url).batches.create({ model: 'sim-chat', src: [{ contents: 'mine' }] });
    const id = created.name!.split('/')[1]!;
    await expect(genai(gw.url, ALPHA_KEY).batches.get({ name: created.name! })).rejects.toMatchObject({ status: 404 });
    const other = await request(gw.app).get(`/v1beta/${created.name}`).set('x-goog-api-key', ALPHA_KEY);
    expect(other.status).toBe(404);
    expect(other.body.error).toMatchObject({ code: 404, status: 'NOT_FOUND' });
    // the same path with a bearer token is OpenAI's batch route, where a Gemini id is a missing batch
    const openai = await request(gw.app).get(`/v1/batches/${id}`).set('authorization', `Bearer ${BETA_KEY}`);
    expect(openai.status).toBe(404);
    expect(openai.body.error).toMatchObject({ type: 'not_found_error', code: 'batch_not_found' });
    await settled(genai(gw.url), created.name!);
  });

  it('answers the wire shapes: the Operation with GenerateContentBatch metadata, int64 stats, the list page', async () => {
    const created = await request(gw.app)
      .post('/v1beta/models/sim-chat:batchGenerateContent')
      .set('x-goog-api-key', BETA_KEY)
      .send({ batch: { displayName: 'raw', inputConfig: { requests: { requests: [inlined('raw one', 'k1')] } } } });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({
      name: expect.stringMatching(/^batches\/gembatch_/),
      done: false,
      metadata: {
        '@type': 'type.googleapis.com/google.ai.generativelanguage.v1main.GenerateContentBatch',
        model: 'models/sim-chat',
        displayName: 'raw',
        state: expect.stringMatching(/^BATCH_STATE_(PENDING|RUNNING)$/),
        batchStats: { requestCount: '1' },
      },
    });
    expect(created.body.metadata.name).toBe(created.body.name);
    const done = await settled(genai(gw.url, BETA_KEY, 'v1beta'), created.body.name);
    expect(done.state).toBe(JobState.JOB_STATE_SUCCEEDED);
    const got = await request(gw.app).get(`/v1/${created.body.name}?key=${BETA_KEY}`);
    expect(got.body).toMatchObject({
      done: true,
      metadata: {
        state: 'BATCH_STATE_SUCCEEDED',
        batchStats: { requestCount: '1', successfulRequestCount: '1', failedRequestCount: '0', pendingRequestCount: '0' },
        output: { inlinedResponses: { inlinedResponses: [{ metadata: { key: 'k1' }, response: { candidates: expect.any(Array) } }] } },
      },
      response: { inlinedResponses: { inlinedResponses: [expect.objectContaining({ metadata: { key: 'k1' } })] } },
    });

    const page = await request(gw.app).get('/v1beta/batches?pageSize=1').set('x-goog-api-key', BETA_KEY);
    expect(page.status).toBe(200);
    expect(page.body.operations).toHaveLength(1);
    expect(typeof page.body.nextPageToken).toBe('string');
    const next = await request(gw.app)
      .get(`/v1beta/batches?pageSize=1&pageToken=${page.body.nextPageToken}`)
      .set('x-goog-api-key', BETA_KEY);
    expect(next.body.operations[0].name).not.toBe(page.body.operations[0].name);

    const files = await request(gw.app)
      .post('/v1beta/models/sim-chat:batchGenerateContent')
      .set('x-goog-api-key', BETA_KEY)
      .send({ batch: { inputConfig: { fileName: 'files/abc' } } });
    expect(files.status).toBe(400);
    expect(files.body.error.message).toContain('inlined');
  });
});

describe('cancel (BATCH_LINE_DELAY_MS)', () => {
  it('stops new requests: the batch ends CANCELLED, the requests not run answer CANCELLED errors', async () => {
    const ai = genai(gw.url);
    const n = 40; // eight at a time, each after 200 ms: seconds of work
    const created = await ai.batches.create({
      model: 'gemini-2.5-flash',
      src: Array.from({ length: n }, (_, i) => ({ contents: `question ${i}`, metadata: { key: `q${i}` } })),
    });
    await eventually(async () => {
      const got = await request(gw.app).get(`/v1beta/${created.name}`).set('x-goog-api-key', BETA_KEY);
      expect(Number(got.body.metadata.batchStats.successfulRequestCount)).toBeGreaterThan(0);
    }, 30_000);
    await ai.batches.cancel({ name: created.name! });
    const done = await settled(ai, created.name!);
    expect(done.state).toBe(JobState.JOB_STATE_CANCELLED);
    const responses = done.dest!.inlinedResponses!;
    expect(responses.map((r) => r.metadata)).toEqual(Array.from({ length: n }, (_, i) => ({ key: `q${i}` })));
    const answered = responses.filter((r) => r.response);
    const cancelled = responses.filter((r) => r.error);
    expect(answered.length).toBeGreaterThan(0);
    expect(cancelled.length).toBeGreaterThan(0);
    expect(answered.length + cancelled.length).toBe(n);
    expect(cancelled[0]!.error).toMatchObject({ code: 1, message: expect.stringContaining('cancelled') });
    const id = created.name!.split('/')[1]!;
    await eventually(() => expect(batchEvents(id).map((e) => e.type)).toEqual(['batch.cancelled']), 30_000);
  });
});

describe('nativeBatch: true on a provider entry', () => {
  it('is accepted, the gateway says at start-up that lines still run one by one, and a batch runs as without it', async () => {
    const log = capturedLog();
    const config = testConfigFile({ models: DEFAULT_CONFIG.models });
    config.providers = config.providers.map((p) => ({ ...p, nativeBatch: true }));
    const native = await startTestGateway({ config, logger: log.logger, env: { batches: { intervalMs: 50 } } });
    try {
      const said = log.lines.find((l) => String(l.message).startsWith('nativeBatch'));
      expect(said).toMatchObject({ level: 'info', providers: ['sim'] });
      expect(said!.message).toContain('one by one');
      await native.startBackground();
      const ai = genai(native.url);
      const created = await ai.batches.create({ model: 'gemini-2.5-flash', src: [{ contents: 'native or not' }] });
      const done = await settled(ai, created.name!);
      expect(done.state).toBe(JobState.JOB_STATE_SUCCEEDED);
      expect(done.dest!.inlinedResponses![0]!.response!.candidates![0]!.content!.parts![0]!.text).toContain('native or not');
    } finally {
      await native.stop();
    }
  }, 120_000); // a second gateway starts, migrations included: slow on a loaded machine
});
