import request from 'supertest';
import { startProviderGateway, type ProviderGateway } from '../support/provider-gateway';
import { BETA_KEY } from '../support/test-gateway';

/**
 * A field the gateway does not know, in every inbound dialect: an upstream of the caller's dialect gets it as
 * written, from the client's own body; an upstream of another dialect does not, and the answer names it.
 */
let pg: ProviderGateway;
beforeAll(async () => {
  pg = await startProviderGateway();
});
afterAll(async () => {
  await pg.stop();
});
beforeEach(() => Object.values(pg.fakes).forEach((f) => f.reset()));

const FIELD = { a_field_from_next_month: { nested: [1, 'two', { three: null }] } };
const NOT_SENT = 'a_field_from_next_month: has no equivalent in the upstream format; not sent';

interface Dialect {
  name: string;
  post(model: string): request.Test;
  /** the fake upstream (and the gateway model it serves) speaking this dialect */
  same: { fake: string; model: string };
  other: { fake: string; model: string };
}

const DIALECTS: Dialect[] = [
  {
    name: 'openai-chat',
    post: (model) =>
      request(pg.gw.url)
        .post('/v1/chat/completions')
        .set('authorization', `Bearer ${BETA_KEY}`)
        .send({ model, messages: [{ role: 'user', content: 'hi' }], ...FIELD }),
    same: { fake: 'openai', model: 'via-openai' },
    other: { fake: 'anthropic', model: 'via-anthropic' },
  },
  {
    name: 'openai-chat (openai-compatible upstream)',
    post: (model) =>
      request(pg.gw.url)
        .post('/v1/chat/completions')
        .set('authorization', `Bearer ${BETA_KEY}`)
        .send({ model, messages: [{ role: 'user', content: 'hi' }], ...FIELD }),
    same: { fake: 'openai-compatible', model: 'via-compatible' },
    other: { fake: 'google', model: 'via-google' },
  },
  {
    name: 'anthropic-messages',
    post: (model) =>
      request(pg.gw.url)
        .post('/v1/messages')
        .set('x-api-key', BETA_KEY)
        .set('anthropic-version', '2023-06-01')
        .send({ model, max_tokens: 50, messages: [{ role: 'user', content: 'hi' }], ...FIELD }),
    same: { fake: 'anthropic', model: 'via-anthropic' },
    other: { fake: 'openai', model: 'via-openai' },
  },
  {
    name: 'gemini-content',
    post: (model) =>
      request(pg.gw.url)
        .post(`/v1beta/models/${model}:generateContent`)
        .set('x-goog-api-key', BETA_KEY)
        .send({ contents: [{ role: 'user', parts: [{ text: 'hi' }] }], ...FIELD }),
    same: { fake: 'google', model: 'via-google' },
    other: { fake: 'openai-responses', model: 'via-openai-responses' },
  },
  {
    name: 'openai-responses',
    post: (model) =>
      request(pg.gw.url)
        .post('/v1/responses')
        .set('authorization', `Bearer ${BETA_KEY}`)
        .send({ model, input: 'hi', ...FIELD }),
    same: { fake: 'openai-responses', model: 'via-openai-responses' },
    other: { fake: 'openai', model: 'via-openai' },
  },
];

describe.each(DIALECTS)('an unknown field in $name', (d) => {
  it('reaches an upstream of the same dialect unchanged, with no warning', async () => {
    const res = await d.post(d.same.model);
    expect(res.status).toBe(200);
    expect(pg.fakes[d.same.fake]!.requests[0]!.body).toMatchObject(FIELD);
    expect(res.headers['x-gateway-warnings'] ?? '').not.toContain('a_field_from_next_month');
  });

  it('is not sent to an upstream of another dialect, and the answer names it', async () => {
    const res = await d.post(d.other.model);
    expect(res.status).toBe(200);
    expect(pg.fakes[d.other.fake]!.requests[0]!.body).not.toHaveProperty('a_field_from_next_month');
    expect(res.headers['x-gateway-warnings']).toContain(NOT_SENT);
  });
});
