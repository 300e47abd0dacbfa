import request from 'supertest';
import { envFromProcess } from '../src/gateway-env';
import { publicBaseUrlFor } from '../src/public-links';
import { ALPHA_KEY, BETA_KEY, type TestGateway } from './support/test-gateway';
import { startVideoGateway, waitForTask } from './support/video-gateways';

// One finished video serves the video links; the environment object is read per request, so each case sets it.
let gw: TestGateway;
let operation: string;
let taskId: string;
beforeAll(async () => {
  gw = await startVideoGateway({ worker: true });
  const created = await request(gw.app)
    .post('/v1beta/models/sim-video-2.0:predictLongRunning')
    .set('x-goog-api-key', BETA_KEY)
    .send({ instances: [{ prompt: 'a cat' }] });
  operation = created.body.name;
  taskId = String(operation).split('/').pop()!;
  expect(await waitForTask(gw.app, taskId, BETA_KEY)).toBe('succeeded');
});
afterAll(async () => {
  await gw?.stop();
});

function configure(env: { publicBaseUrlDerived: boolean; trustProxy?: boolean }) {
  Object.assign(gw.env, { publicBaseUrl: 'https://gateway.test', trustProxy: false, ...env });
}

/** The link each format hands out, asked with these headers. */
const LINKS: Array<{ name: string; link: (headers: Record<string, string>) => Promise<string> }> = [
  {
    name: 'Gemini operation video uri',
    link: async (h) =>
      (await request(gw.app).get(`/v1beta/${operation}`).set('x-goog-api-key', BETA_KEY).set(h)).body.response.generateVideoResponse
        .generatedSamples[0].video.uri,
  },
  {
    name: 'task API content.video_url',
    link: async (h) =>
      (await request(gw.app).get(`/v1/contents/generations/tasks/${taskId}`).set('Authorization', `Bearer ${BETA_KEY}`).set(h)).body.content
        .video_url,
  },
  {
    name: 'OpenAI images url',
    link: async (h) =>
      (
        await request(gw.app)
          .post('/v1/images/generations')
          .set('Authorization', `Bearer ${ALPHA_KEY}`)
          .set(h)
          .send({ model: 'sim-image', prompt: 'a cat', response_format: 'url' })
      ).body.data[0].url,
  },
  { name: 'OpenAPI servers', link: async (h) => (await request(gw.app).get('/openapi.json').set(h)).body.servers[0].url },
];

describe('PUBLIC_BASE_URL unset: links use the origin the request came in on', () => {
  beforeEach(() => configure({ publicBaseUrlDerived: true }));

  it.each(LINKS)('$name → the Host the client used (127.0.0.1 stays 127.0.0.1)', async ({ link }) => {
    expect(await link({ Host: '127.0.0.1:18080' })).toMatch(/^http:\/\/127\.0\.0\.1:18080(\/|$)/);
  });

  it.each(LINKS)('$name → X-Forwarded-* ignored without TRUST_PROXY', async ({ link }) => {
    const url = await link({ Host: '127.0.0.1:18080', 'X-Forwarded-Host': 'api.example.com', 'X-Forwarded-Proto': 'https' });
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:18080(\/|$)/);
  });

  it.each(LINKS)('$name → with TRUST_PROXY, the forwarded host and scheme', async ({ link }) => {
    configure({ publicBaseUrlDerived: true, trustProxy: true });
    const url = await link({ Host: '10.0.0.5:8080', 'X-Forwarded-Host': 'api.example.com, proxy.internal', 'X-Forwarded-Proto': 'https' });
    expect(url).toMatch(/^https:\/\/api\.example\.com(\/|$)/);
  });

  it('a Host that is not a plain host is never put into a link: the configured default serves', async () => {
    const url = await LINKS[3]!.link({ Host: 'evil.example/x?y' });
    expect(url).toBe('https://gateway.test');
  });
});

describe('PUBLIC_BASE_URL set: it wins', () => {
  beforeEach(() => configure({ publicBaseUrlDerived: false, trustProxy: true }));

  it.each(LINKS)('$name → PUBLIC_BASE_URL whatever the request says', async ({ link }) => {
    const url = await link({ Host: '127.0.0.1:18080', 'X-Forwarded-Host': 'api.example.com' });
    expect(url).toMatch(/^https:\/\/gateway\.test(\/|$)/);
  });
});

describe('the environment contract', () => {
  it('PUBLIC_BASE_URL unset → links from the request, default localhost for links minted without one (webhooks)', () => {
    const env = envFromProcess({ PORT: '9000' });
    expect(env).toMatchObject({ publicBaseUrl: 'http://localhost:9000', publicBaseUrlDerived: true, trustProxy: false });
    expect(publicBaseUrlFor(env)()).toBe('http://localhost:9000');
    expect(envFromProcess({ PUBLIC_BASE_URL: 'https://gw.example/', TRUST_PROXY: 'true' })).toMatchObject({
      publicBaseUrl: 'https://gw.example',
      publicBaseUrlDerived: false,
      trustProxy: true,
    });
  });
});
