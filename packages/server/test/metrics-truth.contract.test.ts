import http from 'node:http';
import request from 'supertest';
import { eventually } from '@gateway/testkit';
import { capturedLog } from './support/captured-log';
import { bootstrapConfigKeys } from '../src/bootstrap';
import { buildConfig } from '../src/config';
import { createGateway, type Gateway } from '../src/gateway';
import { ALPHA_KEY, inMemoryGatewayEnv, testConfigFile } from './support/test-gateway';

const ADMIN = 'sk-admin-metrics';
const chat = { model: 'sim-chat', messages: [{ role: 'user', content: 'hi' }] };

describe('metrics and request lines tell the truth', () => {
  let gw: Gateway;
  const { logger, lines } = capturedLog();
  beforeAll(async () => {
    const config = testConfigFile({
      providers: [{ id: 'sim', type: 'simulator', options: { chunkDelayMs: 200 } }],
      limits: { requestsPerMinutePerKey: 4 },
    });
    gw = await createGateway(
      await inMemoryGatewayEnv({
        adminKey: ADMIN,
      }),
      { config: buildConfig('t', config), logger },
    );
    await bootstrapConfigKeys(gw.stores, gw.config);
  });
  afterAll(() => gw.close());
  const scrape = async () => (await request(gw.app).get('/metrics').set('Authorization', `Bearer ${ADMIN}`)).text;

  it('counts every answer: 200, 401, 429 and a 499 for a caller that went away; logs each with what served it', async () => {
    const ok = await request(gw.app).post('/v1/chat/completions?trace=1').set('Authorization', `Bearer ${ALPHA_KEY}`).send(chat);
    expect(ok.status).toBe(200);
    expect((await request(gw.app).post('/v1/chat/completions').send(chat)).status).toBe(401);

    // a stream the caller abandons after its first bytes
    const server = await gw.listen(0, '127.0.0.1');
    const port = (server.address() as { port: number }).port;
    await new Promise<void>((resolve, reject) => {
      const req = http.request({ host: '127.0.0.1', port, path: '/v1/chat/completions', method: 'POST' }, (res) =>
        res.once('data', () => (req.destroy(), resolve())),
      );
      req.setHeader('authorization', `Bearer ${ALPHA_KEY}`);
      req.setHeader('content-type', 'application/json');
      req.on('error', (e) => ((e as NodeJS.ErrnoException).code === 'ECONNRESET' ? undefined : reject(e)));
      req.end(
        JSON.stringify({ ...chat, stream: true, messages: [{ role: 'user', content: 'a prompt long enough to stream for a while' }] }),
      );
    });

    // the key has 4 requests a minute: two are spent, the rest are refused after two more
    for (let i = 0; i < 3; i++) await request(gw.app).post('/v1/chat/completions').set('Authorization', `Bearer ${ALPHA_KEY}`).send(chat);

    await eventually(async () => {
      const text = await scrape();
      expect(text).toMatch(/gateway_requests_total\{format="openai-chat",model="sim-chat",status="200",client_fault="false"\} 3/);
      // refused before any model was resolved: still the chat format's answers
      expect(text).toMatch(/gateway_requests_total\{format="openai-chat",model="none",status="401",client_fault="false"\} 1/);
      expect(text).toMatch(/gateway_requests_total\{format="openai-chat",model="none",status="429",client_fault="false"\} 1/);
      expect(text).toMatch(/gateway_requests_total\{format="openai-chat",model="sim-chat",status="499",client_fault="false"\} 1/);
    });

    const line = lines.find((l) => l.message === 'request' && l.requestId === ok.headers['x-request-id']);
    expect(line).toMatchObject({
      method: 'POST',
      path: '/v1/chat/completions',
      format: 'openai-chat',
      status: 200,
      model: 'sim-chat',
      provider: 'sim',
      attempts: 1,
      latencyMs: expect.any(Number),
    });
    expect(lines.some((l) => l.message === 'request' && l.status === 499 && l.model === 'sim-chat')).toBe(true);
  });

  it('labels format "none" only for answers no route claimed: an unknown path, or a known path with a method it lacks', async () => {
    const unknown = await request(gw.app).get('/v1/no-such-thing').set('Authorization', `Bearer ${ALPHA_KEY}`);
    expect(unknown.status).toBe(404);
    expect((await request(gw.app).delete('/v1/chat/completions').set('Authorization', `Bearer ${ALPHA_KEY}`)).status).toBe(404);
    const anthropic401 = await request(gw.app).post('/v1/messages').send({});
    expect(anthropic401.status).toBe(401);
    await eventually(async () => {
      const text = await scrape();
      expect(text).toMatch(/gateway_requests_total\{format="none",model="none",status="404",client_fault="false"\} 2/);
      expect(text).toMatch(/gateway_requests_total\{format="anthropic-messages",model="none",status="401",client_fault="false"\} 1/);
    });
    expect(lines.find((l) => l.message === 'request' && l.requestId === unknown.headers['x-request-id'])).toMatchObject({
      path: '/v1/no-such-thing',
      format: 'none',
      status: 404,
    });
  });

  it('has a histogram of stream durations', async () => {
    expect(await scrape()).toMatch(/gateway_stream_duration_seconds_count\{format="openai-chat"\} 1/);
  });
});
