import { googleErrorParts } from '@gateway/wire-gemini-content';
import request from 'supertest';
import { envFromProcess } from '../src/gateway-env';
import { ALPHA_KEY, startTestGateway, type TestGateway } from './support/test-gateway';

// sim-video-2.5 is in the catalogue but outside the default group (alpha's): the group check comes before the kind
// check, so every route refuses it as outside the group.
const OUTSIDE = 'sim-video-2.5';

let deployed: TestGateway;
let standard: TestGateway;
beforeAll(async () => {
  deployed = await startTestGateway({ listen: false, env: { modelNotInGroupStatus: 403 } });
  standard = await startTestGateway({ listen: false });
});
afterAll(async () => {
  await deployed?.stop();
  await standard?.stop();
});

const bearer = { Authorization: `Bearer ${ALPHA_KEY}` };
const routes: Array<{ name: string; send: (gw: TestGateway) => request.Test; check: (body: any) => void }> = [
  {
    name: 'OpenAI chat',
    send: (gw) =>
      request(gw.app)
        .post('/v1/chat/completions')
        .set(bearer)
        .send({ model: OUTSIDE, messages: [{ role: 'user', content: 'hi' }] }),
    check: (b) =>
      expect(b.error).toEqual({ message: expect.any(String), type: 'permission_error', param: 'model', code: 'model_not_in_group' }),
  },
  {
    name: 'OpenAI responses',
    send: (gw) => request(gw.app).post('/v1/responses').set(bearer).send({ model: OUTSIDE, input: 'hi', stream: true }),
    check: (b) => expect(b.error).toMatchObject({ type: 'permission_error', code: 'model_not_in_group' }),
  },
  {
    name: 'OpenAI images',
    send: (gw) => request(gw.app).post('/v1/images/generations').set(bearer).send({ model: OUTSIDE, prompt: 'a cat' }),
    check: (b) => expect(b.error).toMatchObject({ type: 'permission_error', code: 'model_not_in_group' }),
  },
  {
    name: 'OpenAI videos',
    send: (gw) => request(gw.app).post('/v1/videos').set(bearer).send({ model: OUTSIDE, prompt: 'a cat' }),
    check: (b) => expect(b.error).toMatchObject({ type: 'permission_error', code: 'model_not_in_group' }),
  },
  {
    name: 'Anthropic messages',
    send: (gw) =>
      request(gw.app)
        .post('/v1/messages')
        .set({ 'x-api-key': ALPHA_KEY, 'anthropic-version': '2023-06-01' })
        .send({ model: OUTSIDE, max_tokens: 16, messages: [{ role: 'user', content: 'hi' }] }),
    check: (b) =>
      expect(b).toEqual({ type: 'error', error: expect.objectContaining({ type: 'permission_error', code: 'model_not_in_group' }) }),
  },
  {
    name: 'Gemini generateContent',
    send: (gw) =>
      request(gw.app)
        .post(`/v1beta/models/${OUTSIDE}:generateContent`)
        .set('x-goog-api-key', ALPHA_KEY)
        .send({ contents: [{ role: 'user', parts: [{ text: 'hi' }] }] }),
    check: (b) => {
      expect(b.error).toMatchObject({ code: 403, status: 'PERMISSION_DENIED' });
      expect(googleErrorParts(b).code).toBe('model_not_in_group');
    },
  },
  {
    name: 'Veo predictLongRunning',
    send: (gw) =>
      request(gw.app)
        .post(`/v1beta/models/${OUTSIDE}:predictLongRunning`)
        .set('x-goog-api-key', ALPHA_KEY)
        .send({ instances: [{ prompt: 'a cat' }] }),
    check: (b) => expect(b).toEqual({ code: 'model_not_in_group', message: expect.any(String) }),
  },
];

describe('MODEL_NOT_IN_GROUP_STATUS=403: a model outside the key group is a final permission error in each format', () => {
  it.each(routes)('$name → 403 in its own permission shape, code model_not_in_group, not retryable', async ({ send, check }) => {
    const res = await send(deployed);
    expect(res.status).toBe(403);
    expect(res.headers['x-should-retry']).toBe('false');
    check(res.body);
  });
});

describe('without the setting the specification stays: 503 model_not_in_group', () => {
  it.each(
    routes.filter((r) => r.name !== 'Anthropic messages' && r.name !== 'Gemini generateContent' && r.name !== 'Veo predictLongRunning'),
  )('$name → 503', async ({ send }) => {
    const res = await send(standard);
    expect(res.status).toBe(503);
    expect(res.body.error.code).toBe('model_not_in_group');
  });

  it('Anthropic and Gemini → 503 in their own shapes', async () => {
    const anthropic = await routes.find((r) => r.name === 'Anthropic messages')!.send(standard);
    expect(anthropic.status).toBe(503);
    expect(anthropic.body.error).toMatchObject({ type: 'permission_error', code: 'model_not_in_group' });
    const gemini = await routes.find((r) => r.name === 'Gemini generateContent')!.send(standard);
    expect(gemini.status).toBe(503);
    expect(gemini.body.error).toMatchObject({ code: 503 });
    expect(googleErrorParts(gemini.body).code).toBe('model_not_in_group');
  });
});

describe('MODEL_NOT_IN_GROUP_STATUS in the environment contract', () => {
  it('reads 403 and 503, defaults to 503, and refuses anything else at start', () => {
    expect(envFromProcess({ MODEL_NOT_IN_GROUP_STATUS: '403' }).modelNotInGroupStatus).toBe(403);
    expect(envFromProcess({ MODEL_NOT_IN_GROUP_STATUS: '503' }).modelNotInGroupStatus).toBe(503);
    expect(envFromProcess({}).modelNotInGroupStatus).toBe(503);
    expect(() => envFromProcess({ MODEL_NOT_IN_GROUP_STATUS: '404' })).toThrow(/MODEL_NOT_IN_GROUP_STATUS must be 403 or 503/);
  });
});
