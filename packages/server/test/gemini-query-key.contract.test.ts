import request from 'supertest';
import { capturedLog } from './support/captured-log';
import { ALPHA_KEY, startTestGateway, type TestGateway } from './support/test-gateway';
import { eventually } from '@gateway/testkit';

const log = capturedLog();
let gw: TestGateway;
beforeAll(async () => {
  gw = await startTestGateway({ listen: false, logger: log.logger });
});
afterAll(() => gw.stop());

const logOf = async (res: request.Response) => {
  const id = res.headers['x-request-id'];
  let entry: Record<string, unknown> | undefined;
  await eventually(() => {
    entry = log.lines.find((e) => e.requestId === id);
    expect(entry).toBeDefined();
  });
  return entry;
};

describe('Gemini ?key= authentication on /v1beta routes', () => {
  it('authenticates generateContent, model reads and the video routes', async () => {
    const gen = await request(gw.app)
      .post(`/v1beta/models/sim-chat:generateContent?key=${ALPHA_KEY}`)
      .send({ contents: [{ role: 'user', parts: [{ text: 'hi' }] }] });
    expect(gen.status).toBe(200);
    expect((await request(gw.app).get(`/v1beta/models?key=${ALPHA_KEY}`)).status).toBe(200);
    const op = await request(gw.app).get(`/v1beta/models/sim-video-2.0/operations/nosuchtask000?key=${ALPHA_KEY}`);
    expect(op.status).toBe(404); // authenticated: the task, not the key, is missing
  });

  it('a wrong ?key= is a 401, and only /v1beta routes read it', async () => {
    const wrong = await request(gw.app).get('/v1beta/models?key=sk-wrong-0000');
    expect(wrong.status).toBe(401);
    const chat = await request(gw.app)
      .post(`/v1/chat/completions?key=${ALPHA_KEY}`)
      .send({ model: 'sim-chat', messages: [{ role: 'user', content: 'x' }] });
    expect(chat.status).toBe(401);
  });

  it('the access log records the full path of a failed request and never the key', async () => {
    const res = await request(gw.app)
      .post(`/v1beta/models/no-such-model:generateContent?key=${ALPHA_KEY}`)
      .send({ contents: [{ role: 'user', parts: [{ text: 'hi' }] }] });
    expect(res.status).toBe(404);
    expect(await logOf(res)).toMatchObject({ path: '/v1beta/models/no-such-model:generateContent', status: 404 });
    // a router whose error handler is mounted on a path prefix used to log "/" here
    const responses = await request(gw.app).post('/v1/responses').set('Authorization', `Bearer ${ALPHA_KEY}`).send({ model: 'nope' });
    expect(responses.status).toBe(404);
    expect(await logOf(responses)).toMatchObject({ path: '/v1/responses', status: 404 });
    expect(log.text()).not.toContain(ALPHA_KEY);
  });
});
