import { ChatOpenAI } from '@langchain/openai';
import { ChatAnthropic } from '@langchain/anthropic';
import { ChatGoogleGenerativeAI } from '@langchain/google-genai';
import type { BaseChatModel } from '@langchain/core/language_models/chat_models';
import { AIMessage, HumanMessage, ToolMessage } from '@langchain/core/messages';
import { tool } from '@langchain/core/tools';
import { z } from 'zod';
import type { TestGateway } from '../support/test-gateway';
import { COMPAT_KEY, startZeroConfigGateway } from './zero-config-gateway';

let gw: TestGateway;
let models: Record<string, () => BaseChatModel>;
beforeAll(async () => {
  gw = await startZeroConfigGateway();
  const openai = { apiKey: COMPAT_KEY, configuration: { baseURL: `${gw.url}/v1` }, maxRetries: 0 };
  models = {
    ChatOpenAI: () => new ChatOpenAI({ model: 'gpt-4.1', ...openai }),
    'ChatOpenAI useResponsesApi': () => new ChatOpenAI({ model: 'gpt-5', useResponsesApi: true, ...openai }),
    ChatAnthropic: () => new ChatAnthropic({ model: 'claude-sonnet-4-5', apiKey: COMPAT_KEY, anthropicApiUrl: gw.url, maxRetries: 0 }),
    ChatGoogleGenerativeAI: () =>
      new ChatGoogleGenerativeAI({ model: 'gemini-2.5-flash', apiKey: COMPAT_KEY, baseUrl: gw.url, maxRetries: 0 }),
  };
});
afterAll(() => gw.stop());

const weather = tool(async ({ city }) => `It is 21 degrees in ${city}`, {
  name: 'weather',
  description: 'The weather in a city',
  schema: z.object({ city: z.string(), unit: z.enum(['celsius', 'fahrenheit']) }),
});
const person = z.object({ name: z.string(), age: z.number().int().min(0).max(120) });

describe.each(['ChatOpenAI', 'ChatOpenAI useResponsesApi', 'ChatAnthropic', 'ChatGoogleGenerativeAI'])('LangChain %s', (name) => {
  it('invoke answers and reports token usage', async () => {
    const m = await models[name]!().invoke('Hello LangChain');
    expect(m.text).toContain('Hello LangChain');
    expect(m.usage_metadata?.input_tokens).toBeGreaterThan(0);
  });

  it('stream: the chunks concatenate to the answer, input tokens included', async () => {
    let text = '';
    let inputTokens = 0;
    for await (const chunk of await models[name]!().stream('Stream for LangChain')) {
      text += chunk.text;
      inputTokens += chunk.usage_metadata?.input_tokens ?? 0;
    }
    expect(text).toContain('Stream for LangChain');
    expect(inputTokens).toBeGreaterThan(0);
  });

  it('tools: a call, its result, and the answer that uses it', async () => {
    const model = models[name]!().bindTools!([weather]);
    const ask = new HumanMessage('Call weather for Oslo');
    const first = (await model.invoke([ask])) as AIMessage;
    expect(first.tool_calls?.[0]).toMatchObject({ name: 'weather', args: { city: expect.any(String) } });
    const call = first.tool_calls![0];
    const result = new ToolMessage({
      tool_call_id: call!.id!,
      content: await weather.invoke(call!.args as { city: string; unit: 'celsius' }),
    });
    const second = await model.invoke([ask, first, result]);
    expect(second.text).toContain('21 degrees');
  });

  it('withStructuredOutput with its default method', async () => {
    const out = await models[name]!().withStructuredOutput(person).invoke('Invent a person');
    expect(person.safeParse(out).success).toBe(true);
  });
});
