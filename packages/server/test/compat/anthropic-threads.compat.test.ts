import Anthropic from '@anthropic-ai/sdk';
import { betaTool } from '@anthropic-ai/sdk/helpers/beta/json-schema';
import { startProviderGateway, UPSTREAMS, type ProviderGateway } from '../support/provider-gateway';
import { BETA_KEY } from '../support/test-gateway';

/**
 * The SDK's server-held threads (`toolRunner()` and `beta.messages.thread()`) against a started gateway whose model
 * is served by a fake OpenAI chat upstream that records what it receives: after the first turn the SDK sends only the
 * new turn with `previous_message_id`, and the upstream must still get the whole conversation and the tools.
 */
let pg: ProviderGateway;
let client: Anthropic;
beforeAll(async () => {
  pg = await startProviderGateway(UPSTREAMS.filter((u) => u.name === 'openai'));
  client = new Anthropic({ apiKey: BETA_KEY, baseURL: pg.gw.url, maxRetries: 0 });
});
afterAll(() => pg.stop());
beforeEach(() => pg.fakes.openai!.reset());

const upstreamBodies = () => pg.fakes.openai!.requests.map((r) => r.body);

function weatherTool(calls: string[]) {
  return betaTool({
    name: 'get_weather',
    description: 'Current weather for a city',
    inputSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
    run: ({ city }) => {
      calls.push(city);
      return `12°C and sunny in ${city}`;
    },
  });
}

describe('@anthropic-ai/sdk threads through the gateway', () => {
  it.each([false, true])('toolRunner with a tool over two turns keeps the history and tools upstream (stream: %s)', async (stream) => {
    pg.fakes.openai!.enqueue(
      { reply: { toolCalls: [{ id: 'call_1', name: 'get_weather', arguments: { city: 'Oslo' } }] } },
      { reply: { text: 'It is sunny in Oslo.' } },
    );
    const calls: string[] = [];
    const runner = client.beta.messages.toolRunner({
      model: 'via-openai',
      max_tokens: 512,
      system: 'You are terse.',
      tools: [weatherTool(calls)],
      messages: [{ role: 'user', content: 'Weather in Oslo?' }],
      ...(stream ? { stream: true as const } : {}),
    });
    const final = await runner.runUntilDone();
    expect(calls).toEqual(['Oslo']);
    expect(final.content).toEqual([expect.objectContaining({ type: 'text', text: 'It is sunny in Oslo.' })]);
    // the SDK continued a thread: the gateway kept the second turn as the continuation of the first
    const kept = await pg.gw.db.knex('responses').where({ id: final.id }).first();
    expect(kept.previous_response_id).toMatch(/^msg_/);

    const [first, second] = upstreamBodies();
    expect(upstreamBodies()).toHaveLength(2);
    expect(first.messages.map((m: { role: string }) => m.role)).toEqual(['system', 'user']);
    // the SDK sent only the tool result; the upstream got system, question, tool call, result, and the tools
    expect(second.messages.map((m: { role: string }) => m.role)).toEqual(['system', 'user', 'assistant', 'tool']);
    expect(second.messages[1].content).toBe('Weather in Oslo?');
    expect(second.messages[2].tool_calls[0].function).toMatchObject({ name: 'get_weather' });
    expect(second.messages[3].content).toContain('12°C and sunny in Oslo');
    expect(second.tools).toEqual(first.tools);
    expect(second.tools[0].function.name).toBe('get_weather');
  });

  it('thread(): the second send carries only the new turn and continues from the first answer', async () => {
    pg.fakes.openai!.enqueue({ reply: { text: 'Hello.' } }, { reply: { text: 'Fine, thanks.' } });
    const thread = client.beta.messages.thread({ model: 'via-openai', max_tokens: 256, system: 'Be brief.' });
    const one = await thread.send({ role: 'user', content: 'Hello, Claude' });
    expect(thread.previousMessageId).toBe(one.id);
    const two = await thread.stream({ role: 'user', content: 'How are you?' }).finalMessage();
    expect(two.content).toEqual([expect.objectContaining({ type: 'text', text: 'Fine, thanks.' })]);
    expect(thread.previousMessageId).toBe(two.id);

    const second = upstreamBodies()[1];
    expect(second.messages).toEqual([
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'Hello, Claude' },
      expect.objectContaining({ role: 'assistant', content: 'Hello.' }),
      { role: 'user', content: 'How are you?' },
    ]);
  });

  it('a thread whose stored turn is gone is replayed by the SDK itself after the 404 thread_not_found', async () => {
    pg.fakes.openai!.enqueue({ reply: { text: 'First.' } }, { reply: { text: 'Second.' } });
    const thread = client.beta.messages.thread({ model: 'via-openai', max_tokens: 256 });
    const one = await thread.send({ role: 'user', content: 'One' });
    await pg.gw.db.knex('responses').where({ id: one.id }).delete();
    const two = await thread.send({ role: 'user', content: 'Two' });
    expect(two.content).toEqual([expect.objectContaining({ text: 'Second.' })]);
    // the refused continue never reached the upstream; the replay carried everything
    expect(upstreamBodies()).toHaveLength(2);
    expect(upstreamBodies()[1].messages.map((m: { content: unknown }) => m.content)).toEqual(['One', 'First.', 'Two']);
  });
});
