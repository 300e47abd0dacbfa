import request from 'supertest';
import { DEFAULT_CONFIG } from '../src/default-config';
import { ALPHA_KEY, BETA_KEY, startTestGateway, testConfigFile, type TestGateway } from './support/test-gateway';

// The in-band `moderation` object of OpenAI's 2.3.0 spec on chat completions and Responses, served by the
// simulator: the gateway runs its own moderation model (sim-moderation, alias omni-moderation-*). The simulator's
// answer repeats the prompt's first words, so a flagged prompt gives a flagged output as well.
let gw: TestGateway;
beforeAll(async () => {
  gw = await startTestGateway({ listen: false, config: testConfigFile({ models: DEFAULT_CONFIG.models }) });
});
afterAll(async () => {
  await gw.stop();
});

const beta = { Authorization: `Bearer ${BETA_KEY}` };
const VIOLENT = 'I will kill you tonight';
const chat = (content: string, moderation: unknown, extra: Record<string, unknown> = {}, key = BETA_KEY) =>
  request(gw.app)
    .post('/v1/chat/completions')
    .set({ Authorization: `Bearer ${key}` })
    .send({ model: 'gpt-4o', messages: [{ role: 'user', content }], moderation, ...extra });
const responses = (input: string, moderation: unknown) =>
  request(gw.app).post('/v1/responses').set(beta).send({ model: 'gpt-4o', input, moderation });

async function moderationRows(requestId: string | undefined) {
  await gw.usage.flush();
  return gw.db.knex('usage_log').where({ request_id: requestId, model: 'sim-moderation' });
}

/** SSE body → the JSON of each data line (without [DONE]). */
function events(text: string): Array<Record<string, any>> {
  return text
    .split('\n')
    .filter((l) => l.startsWith('data: ') && l !== 'data: [DONE]')
    .map((l) => JSON.parse(l.slice(6)));
}

describe('chat completions', () => {
  it('scores input and output by default and answers as usual: moderation_results with the flagged categories', async () => {
    const res = await chat(VIOLENT, { model: 'omni-moderation-latest' });
    expect(res.status).toBe(200);
    expect(res.body.choices[0].message.content).toContain('kill');
    expect(res.body.choices[0].finish_reason).toBe('stop');
    const { input, output } = res.body.moderation;
    for (const side of [input, output]) {
      expect(side).toMatchObject({ type: 'moderation_results', model: 'sim-moderation' });
      expect(side.results).toHaveLength(1);
      expect(side.results[0]).toMatchObject({ type: 'moderation_result', model: 'sim-moderation', flagged: true });
      expect(side.results[0].categories.violence).toBe(true);
      expect(side.results[0].category_scores.violence).toBeGreaterThan(0.5);
      expect(side.results[0].category_applied_input_types.violence).toEqual(['text']);
    }
    // each side is a moderation call of its own, with its own usage row
    expect(await moderationRows(res.headers['x-request-id'])).toHaveLength(2);
  });

  it('block on the input: a flagged prompt never reaches the model; content_filter, and the output says why', async () => {
    const res = await chat(VIOLENT, { model: 'omni-moderation-latest', policy: { input: { mode: 'block' } } });
    expect(res.status).toBe(200);
    expect(res.body.choices[0]).toMatchObject({ finish_reason: 'content_filter', message: { content: '' } });
    expect(res.body.moderation.input.results[0].flagged).toBe(true);
    expect(res.body.moderation.output).toMatchObject({ type: 'error', code: 'input_blocked' });
    expect(res.body.usage.completion_tokens).toBe(0);
    expect(await moderationRows(res.headers['x-request-id'])).toHaveLength(1);
  });

  it('block lets a clean exchange through unchanged, with verdicts that flag nothing', async () => {
    const res = await chat('Tell me about gardens', { policy: { input: { mode: 'block' }, output: { mode: 'block' } } });
    expect(res.body.choices[0].finish_reason).toBe('stop');
    expect(res.body.choices[0].message.content).toContain('gardens');
    expect(res.body.moderation.input.results[0].flagged).toBe(false);
    expect(res.body.moderation.output.results[0].flagged).toBe(false);
  });

  it('streams the verdicts on a chunk of their own; block on the output holds the text back', async () => {
    const res = await chat(VIOLENT, { policy: { output: { mode: 'block' } } }, { stream: true, stream_options: { include_usage: true } });
    expect(res.status).toBe(200);
    const chunks = events(res.text);
    const text = chunks.map((c) => c.choices?.[0]?.delta?.content ?? '').join('');
    expect(text).not.toContain('kill');
    const verdicts = chunks.filter((c) => c.moderation);
    expect(verdicts).toHaveLength(1);
    expect(verdicts[0]!.choices).toEqual([]);
    expect(verdicts[0]!.moderation.input.results[0].flagged).toBe(true);
    expect(verdicts[0]!.moderation.output.results[0].flagged).toBe(true);
    expect(chunks.find((c) => c.choices?.[0]?.finish_reason)!.choices[0].finish_reason).toBe('content_filter');
    // what the model generated was still charged: the usage chunk counts its tokens
    expect(chunks.at(-1)!.usage.completion_tokens).toBeGreaterThan(0);
  });

  it('a clean stream in score mode streams its text as usual and adds the verdicts before the finish', async () => {
    const res = await chat('Tell me about gardens', {}, { stream: true });
    const chunks = events(res.text);
    expect(chunks.map((c) => c.choices?.[0]?.delta?.content ?? '').join('')).toContain('gardens');
    const at = chunks.findIndex((c) => c.moderation);
    expect(at).toBeGreaterThan(0);
    expect(chunks[at + 1]!.choices[0].finish_reason).toBe('stop');
  });

  it('refuses a malformed policy and a moderation model the key may not use, in OpenAI shape, before any call', async () => {
    const bad = await chat('hello', { policy: { input: { mode: 'deny' } } });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toMatch(/moderation/);
    expect(bad.body.error.param).toMatch(/^moderation/);
    // as a chat model outside the key's group answers (the seed's 503, code model_not_in_group)
    const notInGroup = await chat('hello', { model: 'omni-moderation-latest' }, { model: 'sim-chat' }, ALPHA_KEY);
    expect(notInGroup.status).toBe(503);
    expect(notInGroup.body.error).toMatchObject({ code: 'model_not_in_group', param: 'moderation.model' });
    const unknown = await chat('hello', { model: 'no-such-moderation-model' });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error).toMatchObject({ code: 'model_not_found', param: 'moderation.model' });
    const wrongKind = await chat('hello', { model: 'sim-chat' });
    expect(wrongKind.status).toBe(400);
    expect(wrongKind.body.error.code).toBe('model_kind_mismatch');
  });
});

describe('responses', () => {
  it('scores both sides with one moderation_result each', async () => {
    const res = await responses(VIOLENT, { model: 'omni-moderation-latest' });
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('completed');
    expect(res.body.moderation.input).toMatchObject({ type: 'moderation_result', model: 'sim-moderation', flagged: true });
    expect(res.body.moderation.output).toMatchObject({ type: 'moderation_result', flagged: true });
  });

  it('block on the output: the response is incomplete for content_filter, with no output text', async () => {
    const res = await responses(VIOLENT, { policy: { output: { mode: 'block' } } });
    expect(res.body.status).toBe('incomplete');
    expect(res.body.incomplete_details).toEqual({ reason: 'content_filter' });
    expect(JSON.stringify(res.body.output)).not.toContain('kill');
    expect(res.body.moderation.output.flagged).toBe(true);
  });

  it('streams the verdicts on response.completed', async () => {
    const res = await request(gw.app)
      .post('/v1/responses')
      .set(beta)
      .send({ model: 'gpt-4o', input: 'Tell me about gardens', stream: true, moderation: {} });
    const done = events(res.text).find((e) => e.type === 'response.completed');
    expect(done!.response.moderation.input).toMatchObject({ type: 'moderation_result', flagged: false });
    expect(done!.response.moderation.output).toMatchObject({ type: 'moderation_result', flagged: false });
  });
});
