import { randomBytes } from 'node:crypto';
import request from 'supertest';
import { describeWithService, eventually } from '@gateway/testkit';
import { startTcpProxy } from './support/tcp-proxy';
import { BETA_KEY, startTestGateway } from './support/test-gateway';

// "Fast" here is: answered from the gateway's own budget (readiness.test.ts holds /readyz to DATABASE_CHECK_MS on a
// fake clock), not after the pool's 60 s wait for a connection. A bound far from both holds on a loaded machine.
const FAST_MS = 10_000;

jest.setTimeout(150000);

describeWithService('TEST_DATABASE_URL', 'PostgreSQL unreachable (a cut TCP proxy in front of TEST_DATABASE_URL)', (pgUrl) => {
  it("/readyz 503 without waiting for the pool, requests a fast 503 in the caller's format, the worker resumes by itself", async () => {
    const target = new URL(pgUrl);
    const proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 5432) });
    const viaProxy = new URL(pgUrl);
    viaProxy.host = `127.0.0.1:${proxy.port}`;
    const gw = await startTestGateway({
      listen: false,
      env: { databaseUrl: viaProxy.toString(), databaseSchema: `outage_${randomBytes(4).toString('hex')}`, inMemoryDatabase: false },
    });
    const auth = { authorization: `Bearer ${BETA_KEY}` };
    try {
      await gw.startBackground();
      expect((await request(gw.app).get('/readyz')).status).toBe(200);
      const video = await request(gw.app).post('/v1/videos').set(auth).send({ model: 'sim-video-2.0', prompt: 'a lighthouse' });
      expect(video.status).toBe(200);

      await proxy.cut();
      const started = Date.now();
      const ready = await request(gw.app).get('/readyz');
      expect(Date.now() - started).toBeLessThan(FAST_MS);
      expect(ready.status).toBe(503);
      expect(ready.body).toMatchObject({ status: 'not_ready', checks: { database: 'unreachable' } });

      // once the watcher has seen it, every request is refused at once in its own format
      await eventually(async () => {
        const chat = await request(gw.app)
          .post('/v1/chat/completions')
          .set(auth)
          .send({ model: 'sim-chat', messages: [{ role: 'user', content: 'hi' }] });
        expect(chat.status).toBe(503);
        expect(chat.body.error).toMatchObject({ code: 'database_unavailable' });
      });
      const before = Date.now();
      const messages = await request(gw.app)
        .post('/v1/messages')
        .set(auth)
        .send({ model: 'sim-chat', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] });
      expect(Date.now() - before).toBeLessThan(FAST_MS);
      expect(messages.status).toBe(503);
      expect(messages.body).toMatchObject({ type: 'error', error: { type: 'overloaded_error' } });

      await proxy.restore();
      await eventually(async () => expect((await request(gw.app).get('/readyz')).status).toBe(200), 10000);
      // the task created before the outage completes without anyone restarting the worker: a step the outage broke
      // keeps its claim until the lease (30 s) runs out, then the task is claimed again
      await eventually(
        async () => {
          const got = await request(gw.app).get(`/v1/videos/${video.body.id}`).set(auth);
          expect(got.body.status).toBe('completed');
        },
        75000,
        500,
      );
    } finally {
      await proxy.restore();
      await gw.stop();
      await proxy.close();
    }
  });
});
