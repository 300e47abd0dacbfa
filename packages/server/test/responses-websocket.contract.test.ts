import request from 'supertest';
import WebSocket from 'ws';
import { eventually } from '@gateway/testkit';
import { DEFAULT_CONFIG } from '../src/default-config';
import { connectResponsesSocket } from './support/responses-socket';
import { ALPHA_KEY, BETA_KEY, startTestGateway, testConfigFile, type TestGateway } from './support/test-gateway';

let gw: TestGateway;
beforeAll(async () => {
  // sim-chat-slow: a stream slow enough (one part per 300 ms) for the client to leave in the middle of it
  const base = testConfigFile();
  gw = await startTestGateway({
    config: testConfigFile({
      providers: [...base.providers, { id: 'slow', type: 'simulator', options: { chunkDelayMs: 300 } }],
      models: [...DEFAULT_CONFIG.models, { id: 'sim-chat-slow', kind: 'text', provider: 'slow' }],
    }),
  });
});
afterAll(async () => {
  await gw.stop();
});

const wsUrl = () => `${gw.url.replace(/^http/, 'ws')}/v1/responses`;

/** A connection of the key's account, with the beta header OpenAI's WebSocket mode asks for. */
const connect = (key = ALPHA_KEY) =>
  connectResponsesSocket(wsUrl(), { Authorization: `Bearer ${key}`, 'OpenAI-Beta': 'responses_websockets=2026-02-06' });

/** The HTTP answer the upgrade got when it was refused. */
function refusedUpgrade(headers: Record<string, string>) {
  return new Promise<{ status: number; body: any }>((resolve, reject) => {
    const ws = new WebSocket(wsUrl(), { headers });
    ws.on('open', () => reject(new Error('the upgrade was accepted')));
    ws.on('unexpected-response', (_req, res) => {
      let text = '';
      res.on('data', (c) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode!, body: JSON.parse(text) }));
    });
    ws.on('error', () => undefined);
  });
}

describe('the Responses API over WebSocket (GET /v1/responses with an upgrade)', () => {
  it('serves two responses on one connection, the second continuing the first with previous_response_id', async () => {
    const c = await connect();
    const first = await c.create({ model: 'sim-chat', input: 'My name is Ada and I like rivers very much' });
    // the same events as the SSE stream, each one frame, in order
    expect(first.map((e) => e.type).slice(0, 2)).toEqual(['response.created', 'response.in_progress']);
    expect(first.map((e) => e.sequence_number)).toEqual(first.map((_, i) => i));
    const done = first.at(-1).response;
    expect(done).toMatchObject({ object: 'response', status: 'completed', model: 'sim-chat' });
    expect(first.some((e) => e.type === 'response.output_text.delta')).toBe(true);

    const alone = (await c.create({ model: 'sim-chat', input: 'What is my name?' })).at(-1).response;
    const follow = (await c.create({ model: 'sim-chat', input: 'What is my name?', previous_response_id: done.id })).at(-1).response;
    expect(follow.previous_response_id).toBe(done.id);
    // the follow-up went upstream with the whole history: first question, its answer, the new question
    expect(follow.usage.input_tokens).toBe(done.usage.input_tokens + done.usage.output_tokens + alone.usage.input_tokens);

    // the responses are the stored ones: HTTP reads them, and continues them
    const read = await request(gw.app).get(`/v1/responses/${follow.id}`).set('Authorization', `Bearer ${ALPHA_KEY}`);
    expect(read.status).toBe(200);
    expect(read.body.id).toBe(follow.id);
    c.close();
  });

  it('continues over WebSocket a response created over HTTP', async () => {
    const made = await request(gw.app)
      .post('/v1/responses')
      .set('Authorization', `Bearer ${ALPHA_KEY}`)
      .send({ model: 'sim-chat', input: 'Remember the number seven' });
    expect(made.status).toBe(200);
    const c = await connect();
    const follow = (await c.create({ model: 'sim-chat', input: 'Which number?', previous_response_id: made.body.id })).at(-1).response;
    expect(follow.status).toBe('completed');
    expect(follow.previous_response_id).toBe(made.body.id);
    c.close();
  });

  it('refuses a bad key on the upgrade with 401 in the OpenAI shape, before any upgrade', async () => {
    const wrong = await refusedUpgrade({ Authorization: 'Bearer sk-wrong-0000' });
    expect(wrong.status).toBe(401);
    expect(wrong.body.error).toMatchObject({ type: 'authentication_error', code: 'invalid_api_key' });
    const none = await refusedUpgrade({});
    expect(none.status).toBe(401);
    expect(none.body.error.code).toBe('missing_api_key');
  });

  it('answers a bad message with an error event and keeps serving the connection', async () => {
    const c = await connect();
    c.ws.send('{not json');
    expect(await c.next()).toEqual({
      type: 'error',
      status: 400,
      error: { type: 'invalid_request_error', code: 'invalid_json', message: expect.any(String), param: '' },
    });
    c.ws.send(JSON.stringify({ type: 'session.update' }));
    expect(await c.next()).toMatchObject({ type: 'error', status: 400, error: { code: 'unsupported_message_type', param: 'type' } });
    // a body the HTTP route refuses: the same error, as an event
    const badBody = await c.create({ model: 'sim-chat', input: 'x', temperature: 'hot' });
    expect(badBody).toEqual([{ type: 'error', status: 400, error: expect.objectContaining({ type: 'invalid_request_error' }) }]);
    // another account's response is missing, exactly as over HTTP
    const theirs = await request(gw.app)
      .post('/v1/responses')
      .set('Authorization', `Bearer ${BETA_KEY}`)
      .send({ model: 'sim-chat', input: 'hi' });
    const missing = await c.create({ model: 'sim-chat', input: 'x', previous_response_id: theirs.body.id });
    expect(missing).toEqual([
      { type: 'error', status: 404, error: expect.objectContaining({ code: 'response_not_found', param: 'previous_response_id' }) },
    ]);
    // Codex's acknowledgement after each response is accepted silently; the next create is served
    c.ws.send(JSON.stringify({ type: 'response.processed', response_id: theirs.body.id }));
    const after = await c.create({ model: 'sim-chat', input: 'still there?' });
    expect(after.at(-1)).toMatchObject({ type: 'response.completed', response: { status: 'completed' } });
    c.close();
  });

  it('answers generate:false (a warm-up) with an empty completed response, and a continuation of it carries its input', async () => {
    const okRows = async () => {
      await gw.usage.flush();
      return (await gw.db.knex('usage_log').where({ format: 'openai-responses', account_id: 'alpha' }).count({ n: '*' }))[0]!.n;
    };
    const before = await okRows();
    const c = await connect();
    const opening = [{ role: 'user', content: 'My name is Ada and I like rivers very much' }];
    const events = await c.create({ model: 'sim-chat', input: opening, generate: false });
    expect(events.map((e) => e.type)).toEqual(['response.created', 'response.completed']);
    const warm = events[1].response;
    expect(warm).toMatchObject({ object: 'response', status: 'completed', output: [] });
    expect(await okRows()).toBe(before); // no model ran, nothing was logged

    // Codex then sends only the new items with the warm-up's id: the upstream sees the warm-up's input too
    const alone = (await c.create({ model: 'sim-chat', input: 'What is my name?' })).at(-1).response;
    const both = (await c.create({ model: 'sim-chat', input: [...opening, { role: 'user', content: 'What is my name?' }] })).at(
      -1,
    ).response;
    const follow = (await c.create({ model: 'sim-chat', input: 'What is my name?', previous_response_id: warm.id })).at(-1).response;
    expect(follow.status).toBe('completed');
    expect(follow.usage.input_tokens).toBe(both.usage.input_tokens);
    expect(follow.usage.input_tokens).toBeGreaterThan(alone.usage.input_tokens);
    c.close();
  });

  it('continues a store:false response of the same connection, which HTTP cannot read', async () => {
    const c = await connect();
    const first = (await c.create({ model: 'sim-chat', input: 'My name is Ada and I like rivers very much', store: false })).at(
      -1,
    ).response;
    const alone = (await c.create({ model: 'sim-chat', input: 'What is my name?', store: false })).at(-1).response;
    const follow = (await c.create({ model: 'sim-chat', input: 'What is my name?', previous_response_id: first.id, store: false })).at(-1);
    // only the connection's latest unstored response is remembered (as OpenAI's WebSocket mode): `alone` replaced `first`
    expect(follow).toMatchObject({ type: 'error', status: 404, error: { code: 'response_not_found' } });
    const again = (await c.create({ model: 'sim-chat', input: 'What is my name?', previous_response_id: alone.id, store: false })).at(
      -1,
    ).response;
    expect(again.status).toBe('completed');
    expect(again.usage.input_tokens).toBe(alone.usage.input_tokens + alone.usage.output_tokens + alone.usage.input_tokens);
    const read = await request(gw.app).get(`/v1/responses/${alone.id}`).set('Authorization', `Bearer ${ALPHA_KEY}`);
    expect(read.status).toBe(404);
    c.close();
  });

  it('writes one usage row per response, as the HTTP route does', async () => {
    const rows = async () => {
      await gw.usage.flush();
      return gw.db.knex('usage_log').where({ format: 'openai-responses', account_id: 'alpha', status: 'ok' }).select();
    };
    const before = (await rows()).length;
    const c = await connect();
    const one = (await c.create({ model: 'sim-chat', input: 'count me' })).at(-1).response;
    const two = (await c.create({ model: 'sim-chat', input: 'and me too', previous_response_id: one.id })).at(-1).response;
    c.close();
    const after = await rows();
    expect(after.length).toBe(before + 2);
    expect(after.slice(-2).map((r) => [r.model, r.input_tokens, r.output_tokens])).toEqual(
      expect.arrayContaining([
        ['sim-chat', one.usage.input_tokens, one.usage.output_tokens],
        ['sim-chat', two.usage.input_tokens, two.usage.output_tokens],
      ]),
    );
  });

  it('a client closing the socket mid-response stops it as a client leaving an SSE stream: a 499 cancelled usage row', async () => {
    const c = await connect(BETA_KEY); // the vip group sees sim-chat-slow
    c.ws.send(JSON.stringify({ type: 'response.create', model: 'sim-chat-slow', input: 'tell me a long story about rivers' }));
    for (let f = await c.next(); f.type !== 'response.output_text.delta'; f = await c.next());
    c.close();
    await eventually(async () => {
      await gw.usage.flush();
      const row = await gw.db.knex('usage_log').where({ account_id: 'beta', model: 'sim-chat-slow' }).first();
      expect(row).toMatchObject({ format: 'openai-responses', status: 'cancelled', http_status: 499 });
    }, 15_000);
  });

  it('refuses messages beyond 16 waiting behind a running response with a 429 error event', async () => {
    const c = await connect(BETA_KEY);
    c.ws.send(JSON.stringify({ type: 'response.create', model: 'sim-chat-slow', input: 'a long story please' }));
    for (let i = 0; i < 30; i++) c.ws.send(JSON.stringify({ type: 'response.processed', response_id: 'resp_x' }));
    // the slow response holds the queue: 16 messages are taken (the running one included), the rest refused at once
    const refused: any[] = [];
    while (refused.length < 14) {
      const f = await c.next();
      if (f.type === 'error') refused.push(f);
    }
    expect(refused.every((f) => f.status === 429 && f.error.code === 'too_many_pending_messages')).toBe(true);
    c.close();
  });

  // last: it stops the gateway
  it('a gateway shutting down closes its open sockets with 1001 instead of waiting on them', async () => {
    const c = await connect();
    const closed = new Promise<number>((resolve) => c.ws.once('close', (code) => resolve(code)));
    await gw.stop();
    expect(await closed).toBe(1001);
  });
});
