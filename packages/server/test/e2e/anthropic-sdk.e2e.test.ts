import Anthropic from '@anthropic-ai/sdk';
import { ALPHA_KEY, startTestGateway, type TestGateway } from '../support/test-gateway';

let gw: TestGateway;
let client: Anthropic;
beforeAll(async () => {
  gw = await startTestGateway();
  // 1.x sends the key as `authorization: Bearer` and `anthropic-version: 2026-10-21`.
  client = new Anthropic({ apiKey: ALPHA_KEY, baseURL: gw.url, maxRetries: 0 });
});
afterAll(async () => {
  await gw.stop();
});

const weatherTool = {
  name: 'get_weather',
  description: 'Current weather for a city',
  input_schema: { type: 'object' as const, properties: { city: { type: 'string' } }, required: ['city'] },
};

const textOf = (content: Anthropic.ContentBlock[]) => content.map((b) => (b.type === 'text' ? b.text : '')).join('');

describe('@anthropic-ai/sdk 1.x against the gateway', () => {
  it('messages.create returns a typed message', async () => {
    const msg = await client.messages.create({
      model: 'sim-chat',
      max_tokens: 200,
      messages: [{ role: 'user', content: 'Hello from the SDK' }],
    });
    expect(msg.type).toBe('message');
    expect(msg.role).toBe('assistant');
    expect(msg.stop_reason).toBe('end_turn');
    expect(textOf(msg.content)).toContain('Hello from the SDK');
    expect(msg.usage.input_tokens).toBe(4);
    expect(msg.usage.output_tokens).toBeGreaterThan(0);
  });

  it('messages.stream() delivers text events and a finalMessage equal to the non-streamed answer', async () => {
    const params = { model: 'sim-chat', max_tokens: 200, messages: [{ role: 'user' as const, content: 'Stream this please' }] };
    const plain = await client.messages.create(params);
    const stream = client.messages.stream(params);
    let seen = '';
    stream.on('text', (delta) => {
      seen += delta;
    });
    const final = await stream.finalMessage();
    expect(seen).toBe(textOf(plain.content));
    expect(textOf(final.content)).toBe(textOf(plain.content));
    expect(final.stop_reason).toBe('end_turn');
    expect(final.usage).toMatchObject({ input_tokens: plain.usage.input_tokens, output_tokens: plain.usage.output_tokens });
  });

  it('streams thinking blocks with their signature', async () => {
    const final = await client.messages
      .stream({
        model: 'sim-chat',
        max_tokens: 2048,
        thinking: { type: 'enabled', budget_tokens: 1024 },
        messages: [{ role: 'user', content: 'Think first' }],
      })
      .finalMessage();
    expect(final.content.map((b) => b.type)).toEqual(['thinking', 'text']);
    const thinking = final.content[0] as Anthropic.ThinkingBlock;
    expect(thinking.thinking.length).toBeGreaterThan(0);
    expect(thinking.signature.length).toBeGreaterThan(0);
  });

  it('tool use: a tool_use block, streamed input parsed by the SDK, and an answer from the tool_result', async () => {
    const messages: Anthropic.MessageParam[] = [{ role: 'user', content: 'What is the weather in Paris?' }];
    const first = await client.messages.create({
      model: 'sim-chat',
      max_tokens: 200,
      tools: [weatherTool],
      tool_choice: { type: 'any' },
      messages,
    });
    expect(first.stop_reason).toBe('tool_use');
    const call = first.content.find((b): b is Anthropic.ToolUseBlock => b.type === 'tool_use')!;
    expect(call.name).toBe('get_weather');
    expect(typeof (call.input as { city: unknown }).city).toBe('string');

    const streamed = await client.messages
      .stream({ model: 'sim-chat', max_tokens: 200, tools: [weatherTool], tool_choice: { type: 'any' }, messages })
      .finalMessage();
    const streamedCall = streamed.content.find((b): b is Anthropic.ToolUseBlock => b.type === 'tool_use')!;
    expect(streamedCall.input).toEqual(call.input);

    const answer = await client.messages.create({
      model: 'sim-chat',
      max_tokens: 200,
      tools: [weatherTool],
      messages: [
        ...messages,
        { role: 'assistant', content: first.content },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: call.id, content: 'sunny and 21C' }] },
      ],
    });
    expect(answer.stop_reason).toBe('end_turn');
    expect(textOf(answer.content)).toContain('sunny and 21C');
  });

  it('errors surface as the SDK error classes with the Anthropic body', async () => {
    const wrong = new Anthropic({ apiKey: 'sk-unknown-9999', baseURL: gw.url, maxRetries: 0 });
    await expect(
      wrong.messages.create({ model: 'sim-chat', max_tokens: 10, messages: [{ role: 'user', content: 'x' }] }),
    ).rejects.toMatchObject({
      status: 401,
      error: { type: 'error', error: { type: 'authentication_error' } },
    });
    const err = await client.messages
      .create({ model: 'sim-video-2.5', max_tokens: 10, messages: [{ role: 'user', content: 'x' }] })
      .catch((e) => e);
    expect(err).toBeInstanceOf(Anthropic.APIError);
    expect(err.status).toBe(503);
    expect(err.requestID).toEqual(expect.any(String));
  });

  it('messages.countTokens counts what messages.create then reports as input tokens', async () => {
    const params = {
      model: 'sim-chat',
      system: 'Answer briefly.',
      tools: [weatherTool],
      messages: [{ role: 'user' as const, content: 'What is the weather in Oslo?' }],
    };
    const counted = await client.messages.countTokens(params);
    const created = await client.messages.create({ ...params, max_tokens: 64, tool_choice: { type: 'none' } });
    expect(counted.input_tokens).toBe(created.usage.input_tokens);
    expect(counted.input_tokens).toBeGreaterThan(5);
    await expect(client.messages.countTokens({ ...params, model: 'sim-video-2.5' })).rejects.toMatchObject({ status: 503 });
  });

  it('a raw request with x-api-key (the 0.x SDK header) works too', async () => {
    const res = await fetch(`${gw.url}/v1/messages?beta=true`, {
      method: 'POST',
      headers: { 'x-api-key': ALPHA_KEY, 'anthropic-version': '2023-06-01', 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'sim-chat', max_tokens: 50, messages: [{ role: 'user', content: 'raw' }] }),
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { content: Array<{ text: string }> };
    expect(body.content[0]!.text).toContain('raw');
  });
});
