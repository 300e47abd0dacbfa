import request from 'supertest';
import { startFakeUpstream, type FakeUpstream } from '@gateway/testkit';
import { usageRow } from './support/provider-gateway';
import { BETA_KEY, startTestGateway, testConfigFile, type TestGateway } from './support/test-gateway';

/**
 * Provider prompt caching (issue 38): the cached input tokens OpenAI, Gemini and Anthropic report reach the usage row
 * (`cached_tokens`, `cache_write_tokens`), and the credits price them with their own fields: cached reads at
 * `cachedInputPerMillionTokens`, cache writes at `cacheWritePerMillionTokens`, the rest of the input at the input price.
 */
let gw: TestGateway;
const fakes: Record<'openai' | 'gemini' | 'anthropic', FakeUpstream> = {} as never;
const pricing = { inputPerMillionTokens: 10, outputPerMillionTokens: 20, cachedInputPerMillionTokens: 1, cacheWritePerMillionTokens: 12.5 };

beforeAll(async () => {
  [fakes.openai, fakes.gemini, fakes.anthropic] = await Promise.all([
    startFakeUpstream('openai'),
    startFakeUpstream('gemini'),
    startFakeUpstream('anthropic'),
  ]);
  const base = testConfigFile();
  gw = await startTestGateway({
    listen: false,
    config: testConfigFile({
      providers: [
        ...base.providers,
        { id: 'oai', type: 'openai', baseUrl: fakes.openai.url, apiKey: fakes.openai.apiKey },
        { id: 'gem', type: 'google', baseUrl: fakes.gemini.url, apiKey: fakes.gemini.apiKey },
        { id: 'claude', type: 'anthropic', baseUrl: fakes.anthropic.url, apiKey: fakes.anthropic.apiKey },
      ],
      models: [
        ...base.models,
        { id: 'oai-priced', kind: 'text', provider: 'oai', upstreamModel: 'gpt-4.1', pricing },
        { id: 'gem-priced', kind: 'text', provider: 'gem', upstreamModel: 'gemini-2.5-pro', pricing },
        { id: 'claude-priced', kind: 'text', provider: 'claude', upstreamModel: 'claude-sonnet-4-5', pricing },
        {
          id: 'claude-input-price',
          kind: 'text',
          provider: 'claude',
          upstreamModel: 'claude-sonnet-4-5',
          pricing: { inputPerMillionTokens: 10, outputPerMillionTokens: 20 },
        },
      ],
    }),
  });
});
afterAll(async () => {
  await gw.stop();
  await Promise.all(Object.values(fakes).map((f) => f.close()));
});

const chat = (model: string) =>
  request(gw.app)
    .post('/v1/chat/completions')
    .set('Authorization', `Bearer ${BETA_KEY}`)
    .send({ model, messages: [{ role: 'user', content: 'Summarise the notes.' }] });

it.each([
  ['OpenAI', 'openai', 'oai-priced'],
  ['Gemini', 'gemini', 'gem-priced'],
] as const)('%s cached input tokens reach the usage row and are priced at cachedInputPerMillionTokens', async (_name, fake, model) => {
  fakes[fake].enqueue({ reply: { text: 'Done.', usage: { input: 1_000_000, cached: 600_000, output: 100_000 } } });
  const res = await chat(model);
  expect(res.status).toBe(200);
  const row = await usageRow(gw, res.headers['x-request-id']!);
  expect(row).toMatchObject({ input_tokens: 1_000_000, cached_tokens: 600_000, output_tokens: 100_000 });
  // 400k plain input at 10, 600k read at 1, 100k output at 20 (per million)
  expect(Number(row.credits)).toBeCloseTo(4 + 0.6 + 2, 6);
});

it('Anthropic cache reads and writes, through the native /v1/messages path, are priced by their own fields', async () => {
  const usage = { input: 1_200_000, cached: 1_000_000, cacheWrite: 150_000, output: 40_000 };
  const send = (model: string) =>
    request(gw.app)
      .post('/v1/messages')
      .set({ 'x-api-key': BETA_KEY, 'anthropic-version': '2023-06-01' })
      .send({
        model,
        max_tokens: 100,
        system: [{ type: 'text', text: 'Project notes.', cache_control: { type: 'ephemeral' } }],
        messages: [{ role: 'user', content: 'Summarise the notes.' }],
      });
  fakes.anthropic.enqueue({ reply: { text: 'Done.', usage } });
  const res = await send('claude-priced');
  expect(res.status).toBe(200);
  // cache_control reached the upstream as the client wrote it
  expect((fakes.anthropic.requests.at(-1)!.body as { system: unknown[] }).system[0]).toMatchObject({
    cache_control: { type: 'ephemeral' },
  });
  const row = await usageRow(gw, res.headers['x-request-id']!);
  expect(row).toMatchObject({ input_tokens: 1_200_000, cached_tokens: 1_000_000, cache_write_tokens: 150_000, output_tokens: 40_000 });
  // 50k plain at 10, 1M read at 1, 150k written at 12.5, 40k output at 20
  expect(Number(row.credits)).toBeCloseTo(0.5 + 1 + 1.875 + 0.8, 6);

  // without the two fields, reads and writes cost the input price
  fakes.anthropic.enqueue({ reply: { text: 'Done.', usage } });
  const plain = await send('claude-input-price');
  expect(Number((await usageRow(gw, plain.headers['x-request-id']!)).credits)).toBeCloseTo(12 + 0.8, 6);
});
