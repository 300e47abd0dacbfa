import OpenAI from 'openai';
import { Agent, OpenAIChatCompletionsModel, OpenAIResponsesModel, run, setTracingDisabled, tool } from '@openai/agents';
import { z } from 'zod';
import type { TestGateway } from '../support/test-gateway';
import { COMPAT_KEY, startZeroConfigGateway } from './zero-config-gateway';

let gw: TestGateway;
let client: OpenAI;
beforeAll(async () => {
  // tracing would export to api.openai.com: never off loopback
  setTracingDisabled(true);
  gw = await startZeroConfigGateway();
  client = new OpenAI({ apiKey: COMPAT_KEY, baseURL: `${gw.url}/v1`, maxRetries: 0 });
});
afterAll(() => gw.stop());

const weather = tool({
  name: 'weather',
  description: 'The weather in a city',
  parameters: z.object({ city: z.string() }),
  execute: async ({ city }) => `It is 21 degrees in ${city}`,
});

const MODELS = {
  responses: () => new OpenAIResponsesModel(client, 'gpt-5'),
  'chat completions': () => new OpenAIChatCompletionsModel(client, 'gpt-4.1'),
};

describe.each(Object.keys(MODELS) as Array<keyof typeof MODELS>)('OpenAI Agents SDK, %s model', (kind) => {
  const agent = () => new Agent({ name: 'helper', instructions: 'Be brief.', model: MODELS[kind](), tools: [weather] });

  it('runs a tool and answers with its result', async () => {
    const result = await run(agent(), 'Use weather for Rome');
    expect(result.finalOutput).toContain('21 degrees');
  });

  it('streams, then a second turn continues from the first', async () => {
    const a = agent();
    const first = await run(a, 'Tell me something first', { stream: true });
    let streamed = '';
    for await (const chunk of first.toTextStream()) streamed += chunk;
    await first.completed;
    expect(streamed).toContain('Tell me something first');
    expect(first.finalOutput).toBe(streamed);

    const second = await run(a, [...first.history, { role: 'user', content: 'And a second thing' }]);
    expect(second.finalOutput).toContain('And a second thing');
  });
});
