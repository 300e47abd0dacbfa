import request from 'supertest';
import { startControlledUpstream, type ControlledUpstream } from '../reliability/support/controlled-upstream';
import { eventually } from '@gateway/testkit';
import { countingChatStream } from '../support/counting-chat-stream';
import { BETA_KEY, startTestGateway, testConfigFile, type TestGateway } from '../support/test-gateway';

const ADMIN = 'sk-admin-reload-0001';

/**
 * An admin config change reaches every instance by reload. It must not cut what is in flight: only changed
 * providers are rebuilt, and a replaced provider's sockets close when its last call ends.
 */
describe('a config reload while an upstream stream is in flight', () => {
  let upstream: ControlledUpstream;
  let gw: TestGateway;
  const held = () => ({ type: 'openai-compatible', baseUrl: upstream.url, apiKey: upstream.apiKey });

  beforeAll(async () => {
    upstream = await startControlledUpstream('openai', 'hold');
    const base = testConfigFile();
    gw = await startTestGateway({
      // admin writes of a literal upstream key are sealed under the gateway secret (refused without one)
      env: { adminKey: ADMIN, secret: 'reload-test-gateway-secret' },
      config: testConfigFile({
        providers: [...base.providers, { id: 'held', ...held() } as (typeof base.providers)[number]],
        models: [...base.models, { id: 'via-held', kind: 'text', provider: 'held', upstreamModel: 'slow-model' }],
      }),
    });
  });
  afterAll(async () => {
    await gw.stop();
    await upstream.close();
  });

  const admin = (path: string, body: object) => request(gw.app).put(path).set('Authorization', `Bearer ${ADMIN}`).send(body).expect(200);

  it('survives a change of another provider and of its own provider, and completes', async () => {
    const stream = await countingChatStream(gw.url, 'via-held');
    // A finished call leaves an idle keep-alive socket beside the busy one.
    const quick = await request(gw.app)
      .post('/v1/chat/completions')
      .set('Authorization', `Bearer ${BETA_KEY}`)
      .send({ model: 'via-held', messages: [{ role: 'user', content: 'quick' }] });
    expect(quick.status).toBe(200);
    expect(upstream.openSockets()).toBe(2);

    await admin('/admin/providers/sim', { type: 'simulator', options: { queuedMs: 250, videoLatencyMs: 600 } });
    expect(upstream.openSockets()).toBe(2);
    await admin('/admin/providers/held', { ...held(), timeouts: { idleMs: 60_000 } });
    // The replaced transport closes its idle socket at once and keeps the one the stream is on.
    await eventually(() => expect(upstream.openSockets()).toBe(1));

    upstream.releaseAll();
    expect(await stream.finish()).toEqual({ text: 'one two three four five six seven eight nine', done: true });
    expect(upstream.streams[0]!.finished).toBe(true);
    // ...and lets go of that socket once the stream it carried has ended.
    await eventually(() => expect(upstream.openSockets()).toBe(0));

    // The new transport serves the next call.
    const after = await request(gw.app)
      .post('/v1/chat/completions')
      .set('Authorization', `Bearer ${BETA_KEY}`)
      .send({ model: 'via-held', messages: [{ role: 'user', content: 'again' }] });
    expect(after.status).toBe(200);
  });
});
