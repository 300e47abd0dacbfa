import request from 'supertest';
import { anthropicMessagesFormat } from '@gateway/wire-anthropic-messages';
import { startProviderGateway, UPSTREAMS, type ProviderGateway } from './support/provider-gateway';
import { scriptedTextApp, scriptedTextPort } from './support/scripted-text-app';
import { ALPHA_KEY, BETA_KEY } from './support/test-gateway';

/** Anthropic server-held threads, kept by the gateway for an upstream of another dialect (a fake OpenAI chat server). */
let pg: ProviderGateway;
beforeAll(async () => {
  pg = await startProviderGateway(UPSTREAMS.filter((u) => u.name === 'openai'));
});
afterAll(() => pg.stop());
beforeEach(() => pg.fakes.openai!.reset());

const THREADS_BETA = 'message-threads-2026-08-12';
const headers = (key = BETA_KEY) => ({ 'x-api-key': key, 'anthropic-version': '2023-06-01', 'anthropic-beta': THREADS_BETA });
const post = (body: object, key?: string) => request(pg.gw.app).post('/v1/messages').set(headers(key)).send(body);

const weatherTool = {
  name: 'get_weather',
  description: 'Current weather for a city',
  input_schema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
};
const first = {
  model: 'via-openai',
  max_tokens: 256,
  system: 'You are terse.',
  tools: [weatherTool],
  messages: [{ role: 'user', content: 'Weather in Oslo?' }],
  thread: { type: 'create' },
};

function sseEvents(text: string): Array<{ event: string; data: any }> {
  return text
    .split('\n\n')
    .filter((f) => f.includes('data:'))
    .map((f) => ({ event: /event: (.*)/.exec(f)?.[1] ?? '', data: JSON.parse(/data: (.*)/.exec(f)![1]!) }));
}

describe('a thread continued with only the new turn reaches the upstream with its whole history', () => {
  it.each([false, true])('stream: %s', async (stream) => {
    pg.fakes.openai!.enqueue(
      { reply: { toolCalls: [{ id: 'call_1', name: 'get_weather', arguments: { city: 'Oslo' } }] } },
      { reply: { text: 'Sunny.' } },
    );
    const one = await post({ ...first, stream });
    expect(one.status).toBe(200);
    const answer = stream ? sseEvents(one.text).find((e) => e.event === 'message_start')!.data.message : one.body;
    expect(answer.id).toMatch(/^msg_/);
    const toolUse = stream
      ? sseEvents(one.text).find((e) => e.data.content_block?.type === 'tool_use')!.data.content_block
      : answer.content[0];
    expect(toolUse).toMatchObject({ type: 'tool_use', name: 'get_weather' });

    const two = await post({
      model: 'via-openai',
      max_tokens: 256,
      stream,
      messages: [{ role: 'user', content: [{ type: 'tool_result', tool_use_id: toolUse.id, content: '12°C, sunny' }] }],
      thread: { type: 'continue', previous_message_id: answer.id },
    });
    expect(two.status).toBe(200);
    const text = stream
      ? sseEvents(two.text)
          .map((e) => e.data.delta?.text ?? '')
          .join('')
      : two.body.content[0].text;
    expect(text).toBe('Sunny.');

    const [up1, up2] = pg.fakes.openai!.requests.map((r) => r.body);
    expect(up1.messages.at(-1)).toMatchObject({ role: 'user', content: 'Weather in Oslo?' });
    // the second upstream request carries the system prompt, the first turn, the tool call, the result and the tools
    expect(up2.tools).toEqual(up1.tools);
    expect(up2.tools[0].function.name).toBe('get_weather');
    expect(up2.messages.map((m: { role: string }) => m.role)).toEqual(['system', 'user', 'assistant', 'tool']);
    expect(up2.messages[0].content).toContain('You are terse.');
    expect(up2.messages[2].tool_calls[0]).toMatchObject({ id: toolUse.id, function: { name: 'get_weather' } });
    expect(up2.messages[3]).toMatchObject({ tool_call_id: toolUse.id });
    // the thread is the gateway's business: neither the field nor its beta flag goes upstream
    expect(JSON.stringify(up2)).not.toContain('previous_message_id');
  });

  it('answers 404 thread_not_found in Anthropic shape for an unknown id, another account’s, or a Responses id', async () => {
    const one = await post({ ...first, model: 'sim-chat' });
    expect(one.status).toBe(200);
    const resp = await request(pg.gw.app)
      .post('/v1/responses')
      .set({ Authorization: `Bearer ${BETA_KEY}` })
      .send({ model: 'sim-chat', input: 'hi' });
    expect(resp.status).toBe(200);
    const cont = (id: string, key?: string) =>
      post(
        {
          model: 'sim-chat',
          max_tokens: 64,
          messages: [{ role: 'user', content: 'and?' }],
          thread: { type: 'continue', previous_message_id: id },
        },
        key,
      );
    for (const res of [await cont('msg_unknown'), await cont(one.body.id, ALPHA_KEY), await cont(resp.body.id)]) {
      expect(res.status).toBe(404);
      expect(res.body).toEqual({
        type: 'error',
        error: {
          type: 'not_found_error',
          message: expect.stringContaining('previous_message_id'),
          param: 'thread.previous_message_id',
          code: 'thread_not_found',
          details: { error_code: 'thread_not_found' },
        },
      });
    }
    expect((await cont(one.body.id)).status).toBe(200);
    // and a thread turn is no stored response
    const read = await request(pg.gw.app)
      .get(`/v1/responses/${one.body.id}`)
      .set({ Authorization: `Bearer ${BETA_KEY}` });
    expect(read.status).toBe(404);
  });

  it('refuses a continue that changes the tools the thread was created with', async () => {
    const one = await post({ ...first, model: 'sim-chat' });
    const res = await post({
      model: 'sim-chat',
      max_tokens: 64,
      tools: [{ ...weatherTool, name: 'other' }],
      messages: [{ role: 'user', content: 'and?' }],
      thread: { type: 'continue', previous_message_id: one.body.id },
    });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'thread_fingerprint_mismatch', details: { error_code: 'thread_fingerprint_mismatch' } });
  });
});

describe('where no thread can be kept', () => {
  it('answers thread_unsupported_request, the error the SDK falls back on, and never answers without the history', async () => {
    const { port, seen } = scriptedTextPort([{ type: 'text-delta', delta: 'hi' }], 'fail');
    // the router as composed without a response store
    const res = await request(scriptedTextApp(anthropicMessagesFormat, port))
      .post('/v1/messages')
      .set(headers())
      .send({ ...first, model: 'scripted' });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({
      type: 'invalid_request_error',
      code: 'thread_unsupported_request',
      details: { error_code: 'thread_unsupported_request' },
    });
    expect(seen.finished).toBe(false);
  });
});
