import request from 'supertest';
import { Writable } from 'node:stream';
import winston from 'winston';
import { buildConfig } from '../src/config';
import { createGateway, type Gateway } from '../src/gateway';
import { bootstrapConfigKeys } from '../src/bootstrap';
import { ALPHA_KEY, testConfigFile } from './support/test-gateway';
import { eventually } from '@gateway/testkit';

const lines: string[] = [];
let gw: Gateway;
beforeAll(async () => {
  const sink = new Writable({
    write(chunk, _enc, cb) {
      lines.push(String(chunk));
      cb();
    },
  });
  const logger = winston.createLogger({
    level: 'info',
    format: winston.format.json(),
    transports: [new winston.transports.Stream({ stream: sink })],
  });
  gw = await createGateway(
    { port: 0, host: '127.0.0.1', dataDir: '/tmp', publicBaseUrl: 'https://x', inMemoryDatabase: true },
    { config: buildConfig('t', testConfigFile()), logger },
  );
  await bootstrapConfigKeys(gw.stores, gw.config);
});
afterAll(() => gw.close());

const logOf = async (res: request.Response) => {
  const id = res.headers['x-request-id'];
  let entry: Record<string, unknown> | undefined;
  await eventually(() => {
    entry = lines.map((l) => JSON.parse(l)).find((e) => e.requestId === id);
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
    expect(lines.join('\n')).not.toContain(ALPHA_KEY);
  });
});
