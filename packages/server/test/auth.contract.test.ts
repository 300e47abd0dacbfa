import request from 'supertest';
import { ALPHA_KEY, BETA_KEY, startTestGateway, type TestGateway } from './support/test-gateway';

let gw: TestGateway;
beforeAll(async () => {
  gw = await startTestGateway({ listen: false });
});
afterAll(async () => {
  await gw.stop();
});

const chat = (model = 'sim-chat') => ({ model, messages: [{ role: 'user', content: 'hi' }] });

describe('authentication', () => {
  it.each([
    ['missing', undefined, 'missing_api_key'],
    ['malformed', 'Bearer not-a-key', 'invalid_api_key'],
    ['unknown', 'Bearer sk-unknown-9999', 'invalid_api_key'],
    ['empty bearer', 'Bearer ', 'missing_api_key'],
  ])('%s key → 401 in the OpenAI shape', async (_name, header, code) => {
    const r = request(gw.app).post('/v1/chat/completions').send(chat());
    if (header !== undefined) r.set('Authorization', header);
    const res = await r;
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ error: { message: expect.any(String), type: 'authentication_error', param: '', code: expect.any(String) } });
    if (header !== 'Bearer ') expect(res.body.error.code).toBe(code);
  });

  it('accepts a valid bearer key', async () => {
    const res = await request(gw.app).post('/v1/chat/completions').set('Authorization', `Bearer ${ALPHA_KEY}`).send(chat());
    expect(res.status).toBe(200);
    expect(res.body.object).toBe('chat.completion');
  });

  it('a model outside the key group → 503 model_not_in_group', async () => {
    const res = await request(gw.app).post('/v1/chat/completions').set('Authorization', `Bearer ${ALPHA_KEY}`).send(chat('sim-video-2.5'));
    expect(res.status).toBe(503);
    expect(res.body.error).toMatchObject({ code: 'model_not_in_group', param: 'model' });
    for (const v of Object.values(res.body.error)) expect(typeof v).toBe('string');
  });

  it('an unknown model is a 404 model_not_found naming it', async () => {
    const res = await request(gw.app).post('/v1/chat/completions').set('Authorization', `Bearer ${BETA_KEY}`).send(chat('no-such-model'));
    expect(res.status).toBe(404);
    expect(res.body.error).toMatchObject({ code: 'model_not_found', type: 'invalid_request_error', param: 'model' });
    expect(res.body.error.message).toContain('no-such-model');
  });

  it('a revoked key is refused at once', async () => {
    const { hashApiKey } = await import('@gateway/core');
    await gw.stores.keys.createAccount('gamma');
    const rec = await gw.stores.keys.createKey({
      accountId: 'gamma',
      group: 'default',
      hash: hashApiKey('sk-gamma-test-key-0003'),
      prefix: 'sk-gamm',
    });
    const ok = await request(gw.app).post('/v1/chat/completions').set('Authorization', 'Bearer sk-gamma-test-key-0003').send(chat());
    expect(ok.status).toBe(200);
    expect(await gw.stores.keys.revokeKey(rec.id)).toBe(true);
    const res = await request(gw.app).post('/v1/chat/completions').set('Authorization', 'Bearer sk-gamma-test-key-0003').send(chat());
    expect(res.status).toBe(401);
  });

  it('returns x-request-id and no x-powered-by', async () => {
    const res = await request(gw.app).get('/healthz');
    expect(res.status).toBe(200);
    expect(res.headers['x-request-id']).toMatch(/^req_/);
    expect(res.headers['x-powered-by']).toBeUndefined();
  });

  it('readyz reports the store ready', async () => {
    const res = await request(gw.app).get('/readyz');
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('ready');
  });

  it('invalid JSON is a 400, not a 500', async () => {
    const res = await request(gw.app)
      .post('/v1/chat/completions')
      .set('Authorization', `Bearer ${ALPHA_KEY}`)
      .set('content-type', 'application/json')
      .send('{"model":');
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('invalid_json');
  });

  it('unknown routes are 404 in the path format', async () => {
    const a = await request(gw.app).get('/v1/nope');
    expect(a.status).toBe(404);
    expect(a.body.error.type).toBe('not_found_error');
    const b = await request(gw.app).get('/v1beta/nope');
    expect(b.status).toBe(404);
    expect(b.body.error.status).toBe('NOT_FOUND');
  });
});
