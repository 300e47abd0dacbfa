import request from 'supertest';
import { startProviderGateway, UPSTREAMS, type ProviderGateway } from './support/provider-gateway';
import { BETA_KEY } from './support/test-gateway';

/** Codex's input items that only set options (configuration_update) are applied, not refused. */
let pg: ProviderGateway;
beforeAll(async () => {
  pg = await startProviderGateway(UPSTREAMS.filter((u) => u.name === 'openai-responses'));
});
afterAll(() => pg.stop());

const post = (body: object) =>
  request(pg.gw.app)
    .post('/v1/responses')
    .set({ Authorization: `Bearer ${BETA_KEY}` })
    .send({ model: 'via-openai-responses', ...body });

describe('Responses input items that only set options', () => {
  it('a configuration_update is applied to the request and does not reach the upstream as an item', async () => {
    const res = await post({
      input: [
        { type: 'configuration_update', reasoning: { effort: 'low', summary: 'auto' }, max_output_tokens: 321 },
        { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'hi' }] },
      ],
    });
    expect(res.status).toBe(200);
    const upstream = pg.fakes['openai-responses']!.requests.at(-1)!.body;
    expect(upstream).toMatchObject({ reasoning: { effort: 'low' }, max_output_tokens: 321 });
    expect(JSON.stringify(upstream.input)).not.toContain('configuration_update');
    expect(res.body.max_output_tokens).toBe(321);
  });

  it('an unknown item type that carries content keeps its clear 400', async () => {
    for (const item of [
      { type: 'configuration_update', content: [{ type: 'input_text', text: 'x' }] },
      { type: 'mystery_item', text: 'x' },
    ]) {
      const res = await post({ input: [item, { role: 'user', content: 'hi' }] });
      expect(res.status).toBe(400);
      expect(res.body.error).toMatchObject({ code: 'unsupported_input_item', param: 'input[0].type' });
    }
  });
});
