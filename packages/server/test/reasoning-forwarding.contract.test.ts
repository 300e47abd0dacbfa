import request from 'supertest';
import { startProviderGateway, UPSTREAMS, type ProviderGateway } from './support/provider-gateway';
import { BETA_KEY } from './support/test-gateway';

/**
 * The models here are served by fake upstreams and their catalogue entries declare no reasoning efforts: each
 * format's effort / thinking settings reach the upstream as asked, and the upstream decides.
 */
let pg: ProviderGateway;
beforeAll(async () => {
  pg = await startProviderGateway(UPSTREAMS.filter((u) => ['openai', 'openai-responses', 'anthropic', 'google'].includes(u.name)));
});
afterAll(() => pg.stop());
beforeEach(() => Object.values(pg.fakes).forEach((f) => f.reset()));

const post = (path: string, body: object, headers: Record<string, string>) => request(pg.gw.app).post(path).set(headers).send(body);
const bearer = { Authorization: `Bearer ${BETA_KEY}` };
const lastBody = (name: string) => pg.fakes[name]!.requests.at(-1)?.body;

describe('reasoning settings on a model whose catalogue entry declares no efforts are forwarded', () => {
  it('OpenAI chat: reasoning_effort', async () => {
    const res = await post(
      '/v1/chat/completions',
      { model: 'via-openai', reasoning_effort: 'xhigh', messages: [{ role: 'user', content: 'hi' }] },
      bearer,
    );
    expect(res.status).toBe(200);
    expect(lastBody('openai')).toMatchObject({ reasoning_effort: 'xhigh' });
  });

  it('OpenAI Responses: reasoning.effort and reasoning.summary', async () => {
    const res = await post(
      '/v1/responses',
      { model: 'via-openai-responses', input: 'hi', reasoning: { effort: 'xhigh', summary: 'auto' } },
      bearer,
    );
    expect(res.status).toBe(200);
    expect(lastBody('openai-responses')).toMatchObject({ reasoning: { effort: 'xhigh' } });
  });

  it('Anthropic: output_config.effort with adaptive thinking (Claude Code) and enabled thinking to another dialect', async () => {
    const headers = { 'x-api-key': BETA_KEY, 'anthropic-version': '2023-06-01' };
    const messages = [{ role: 'user', content: 'hi' }];
    const adaptive = await post(
      '/v1/messages',
      { model: 'via-anthropic', max_tokens: 4096, messages, output_config: { effort: 'max' }, thinking: { type: 'adaptive' } },
      headers,
    );
    expect(adaptive.status).toBe(200);
    expect(lastBody('anthropic')).toMatchObject({ output_config: { effort: 'max' }, thinking: { type: 'adaptive' } });

    const enabled = await post(
      '/v1/messages',
      { model: 'via-google', max_tokens: 4096, messages, thinking: { type: 'enabled', budget_tokens: 2048 } },
      headers,
    );
    expect(enabled.status).toBe(200);
    expect(lastBody('google').generationConfig.thinkingConfig).toMatchObject({ thinkingBudget: 2048 });
  });

  it('Gemini: generationConfig.thinkingConfig (Gemini CLI)', async () => {
    const res = await post(
      '/v1beta/models/via-google:generateContent',
      {
        contents: [{ role: 'user', parts: [{ text: 'hi' }] }],
        generationConfig: { thinkingConfig: { thinkingBudget: 8192, includeThoughts: true } },
      },
      { 'x-goog-api-key': BETA_KEY },
    );
    expect(res.status).toBe(200);
    expect(lastBody('google').generationConfig.thinkingConfig).toMatchObject({ thinkingBudget: 8192, includeThoughts: true });
  });
});
