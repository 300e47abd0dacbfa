import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { refusedUrl } from '@gateway/testkit';
import { startProviderGateway, usageRow, type ProviderGateway, type UpstreamUnderTest } from '../support/provider-gateway';
import { BETA_KEY } from '../support/test-gateway';

/** Two upstreams of different dialects; each scenario gets its own model (so its own breakers). */
const PRIMARY: UpstreamUnderTest = {
  name: 'primary',
  type: 'anthropic',
  dialect: 'anthropic',
  model: 'primary-only',
  upstreamModel: 'p-solo',
};
const SECONDARY: UpstreamUnderTest = {
  name: 'secondary',
  type: 'openai',
  dialect: 'openai',
  model: 'secondary-only',
  upstreamModel: 's-solo',
};
const SCENARIOS = ['down', '500', '429', 'timeout', 'bad-request', 'both-429', 'mid-stream', 'breaker'];

let pg: ProviderGateway;
let client: OpenAI;
beforeAll(async () => {
  const dead = await refusedUrl();
  pg = await startProviderGateway([PRIMARY, SECONDARY], (file) => ({
    ...file,
    providers: [...file.providers, { id: 'dead', type: 'openai', baseUrl: `${dead}/v1`, apiKey: 'sk-dead-0000' }],
    models: [
      ...file.models,
      ...SCENARIOS.map((s) => ({
        id: `fo-${s}`,
        kind: 'text' as const,
        deployments: [
          { provider: s === 'down' ? 'dead' : 'primary', upstreamModel: `p-${s}`, priority: 0 },
          { provider: 'secondary', upstreamModel: `s-${s}`, priority: 1 },
        ],
      })),
    ],
  }));
  client = new OpenAI({ apiKey: BETA_KEY, baseURL: `${pg.gw.url}/v1`, maxRetries: 0 });
});
afterAll(async () => {
  await pg.stop();
});
beforeEach(() => Object.values(pg.fakes).forEach((f) => f.reset()));

async function ask(model: string) {
  const { data, response } = await client.chat.completions.create({ model, messages: [{ role: 'user', content: 'hi' }] }).withResponse();
  return { text: data.choices[0]!.message.content, requestId: response.headers.get('x-request-id')! };
}

describe('failover through the gateway', () => {
  it.each([
    ['down', undefined],
    ['500', { status: 500 }],
    ['429', { status: 429, headers: { 'retry-after': '30' } }],
    ['timeout', { hang: true }],
  ] as const)('first deployment %s → answered by the second, both attempts in the usage log', async (scenario, behaviour) => {
    if (behaviour) pg.fakes.primary!.enqueue(behaviour);
    const r = await ask(`fo-${scenario}`);
    expect(r.text).toBe('fake-openai says: hi');
    expect(pg.fakes.secondary!.requests[0]!.body.model).toBe(`s-${scenario}`);
    expect(await usageRow(pg.gw, r.requestId)).toMatchObject({ status: 'ok', provider: 'secondary', attempts: 2, model: `fo-${scenario}` });
  });

  it('a 400 is not failed over: the caller gets it with the upstream message', async () => {
    pg.fakes.primary!.enqueue({ status: 400, errorMessage: 'messages.0.content: text must be non-empty' });
    const e = await ask('fo-bad-request').catch((x) => x);
    expect(e).toBeInstanceOf(OpenAI.BadRequestError);
    expect(e.error).toMatchObject({ message: 'messages.0.content: text must be non-empty', type: 'invalid_request_error' });
    expect(pg.fakes.secondary!.requests).toHaveLength(0);
  });

  it('every deployment rate limited → 429 with Retry-After, in the caller format', async () => {
    pg.fakes.primary!.enqueue({ status: 429, headers: { 'retry-after': '3' } });
    pg.fakes.secondary!.enqueue({ status: 429, headers: { 'retry-after': '7' } });
    const e = await ask('fo-both-429').catch((x) => x);
    expect(e).toBeInstanceOf(OpenAI.RateLimitError);
    expect(e.headers.get('retry-after')).toBe('7');

    pg.fakes.primary!.enqueue({ status: 429, headers: { 'retry-after': '3' } });
    pg.fakes.secondary!.enqueue({ status: 429, headers: { 'retry-after': '7' } });
    const anthropic = new Anthropic({ apiKey: BETA_KEY, baseURL: pg.gw.url, maxRetries: 0 });
    const ae = await anthropic.messages
      .create({ model: 'fo-both-429', max_tokens: 50, messages: [{ role: 'user', content: 'hi' }] })
      .catch((x) => x);
    expect(ae).toBeInstanceOf(Anthropic.RateLimitError);
    expect(ae.headers.get('retry-after')).toBe('7');
    expect(ae.error).toMatchObject({ type: 'error', error: { type: 'rate_limit_error' } });
  });

  it('a failure after the first byte ends the stream with the format error event and is not retried', async () => {
    pg.fakes.primary!.enqueue({ streamErrorAfter: 4 });
    const stream = await client.chat.completions.create({
      model: 'fo-mid-stream',
      messages: [{ role: 'user', content: 'hi' }],
      stream: true,
    });
    let text = '';
    const e = await (async () => {
      for await (const c of stream) text += c.choices[0]?.delta.content ?? '';
    })().catch((x) => x);
    expect(e).toBeInstanceOf(OpenAI.APIError);
    expect(text.length).toBeGreaterThan(0);
    expect(pg.fakes.secondary!.requests).toHaveLength(0);
  });

  it('the breaker opens after repeated failures: the failing deployment is then skipped', async () => {
    pg.fakes.primary!.setDefault({ status: 503 });
    for (let i = 0; i < 5; i++) expect((await ask('fo-breaker')).text).toBe('fake-openai says: hi');
    expect(pg.fakes.primary!.requests).toHaveLength(5);
    const r = await ask('fo-breaker');
    expect(pg.fakes.primary!.requests).toHaveLength(5);
    expect(await usageRow(pg.gw, r.requestId)).toMatchObject({ status: 'ok', provider: 'secondary', attempts: 1 });
  });

  it('every deployment open → 503 in the caller format, no upstream called', async () => {
    pg.fakes.primary!.setDefault({ status: 529 });
    for (let i = 0; i < 5; i++) await expect(ask('primary-only')).rejects.toBeInstanceOf(OpenAI.InternalServerError);
    const e = await ask('primary-only').catch((x) => x);
    expect(e.status).toBe(503);
    expect(e.error).toMatchObject({ code: 'all_upstreams_unavailable', type: 'service_unavailable' });
    expect(pg.fakes.primary!.requests).toHaveLength(5);
  });
});

describe('breaker thresholds from the config file (circuitBreaker)', () => {
  let tuned: ProviderGateway;
  let tunedClient: OpenAI;
  beforeAll(async () => {
    tuned = await startProviderGateway([PRIMARY, SECONDARY], (file) => ({
      ...file,
      circuitBreaker: { consecutiveFailures: 2, coolDownMs: 300 },
      models: [
        ...file.models,
        {
          id: 'fo-tuned',
          kind: 'text' as const,
          deployments: [
            { provider: 'primary', upstreamModel: 'p-tuned', priority: 0 },
            { provider: 'secondary', upstreamModel: 's-tuned', priority: 1 },
          ],
        },
      ],
    }));
    tunedClient = new OpenAI({ apiKey: BETA_KEY, baseURL: `${tuned.gw.url}/v1`, maxRetries: 0 });
  });
  afterAll(async () => {
    await tuned.stop();
  });

  it('opens after consecutiveFailures and probes again after coolDownMs', async () => {
    tuned.fakes.primary!.setDefault({ status: 503 });
    const ask = () => tunedClient.chat.completions.create({ model: 'fo-tuned', messages: [{ role: 'user', content: 'hi' }] });
    for (let i = 0; i < 3; i++) expect((await ask()).choices[0]!.message.content).toBe('fake-openai says: hi');
    expect(tuned.fakes.primary!.requests).toHaveLength(2); // the third call skipped the open breaker
    await new Promise((r) => setTimeout(r, 350));
    tuned.fakes.primary!.setDefault({});
    expect((await ask()).choices[0]!.message.content).toBe('fake-anthropic says: hi'); // the half-open probe succeeded
    expect(tuned.fakes.primary!.requests).toHaveLength(3);
  });
});
