import OpenAI from 'openai';
import { ALPHA_KEY, BETA_KEY, startTestGateway, type TestGateway } from '../support/test-gateway';

let gw: TestGateway;
let client: OpenAI;
beforeAll(async () => {
  gw = await startTestGateway();
  client = new OpenAI({ apiKey: ALPHA_KEY, baseURL: `${gw.url}/v1`, maxRetries: 0 });
});
afterAll(async () => { await gw.stop(); });

const tools: OpenAI.Responses.FunctionTool[] = [{
  type: 'function', name: 'get_weather', description: 'Weather', strict: false,
  parameters: { type: 'object', properties: { city: { type: 'string' }, days: { type: 'integer', minimum: 1, maximum: 7 } }, required: ['city', 'days'] },
}];

/** type, role or name, text: enough to see that each item came back as what it was. */
function describeItem(item: OpenAI.Responses.ResponseItem): string[] {
  switch (item.type) {
    case 'message': {
      const first = item.content[0];
      return [item.type, item.role, first && 'text' in first ? first.text : ''];
    }
    case 'function_call': return [item.type, item.name, item.arguments];
    case 'function_call_output': return [item.type, item.call_id, typeof item.output === 'string' ? item.output : ''];
    default: return [item.type];
  }
}

describe('openai 6.x responses.inputItems and responses.cancel against the gateway', () => {
  let call: OpenAI.Responses.Response;
  let last: OpenAI.Responses.Response;
  beforeAll(async () => {
    call = await client.responses.create({
      model: 'sim-chat', tools, tool_choice: 'required',
      input: [{ role: 'developer', content: 'Answer briefly.' }, { role: 'user', content: 'Weather in Oslo?' }],
    });
    const fc = call.output[0] as OpenAI.Responses.ResponseFunctionToolCall;
    expect(fc.type).toBe('function_call');
    const answer = await client.responses.create({
      model: 'sim-chat', tools, previous_response_id: call.id, input: [{ type: 'function_call_output', call_id: fc.call_id, output: '{"temp_c":7}' }],
    });
    last = await client.responses.create({ model: 'sim-chat', previous_response_id: answer.id, input: 'Thank you' });
  });

  it('inputItems.list: the conversation so far, newest first, with the right types and texts', async () => {
    const page = await client.responses.inputItems.list(last.id);
    const fc = call.output[0] as OpenAI.Responses.ResponseFunctionToolCall;
    expect(page.has_more).toBe(false);
    expect(page.data.map(describeItem)).toEqual([
      ['message', 'user', 'Thank you'],
      ['message', 'assistant', 'The tool get_weather returned: {"temp_c":7}'],
      ['function_call_output', fc.call_id, '{"temp_c":7}'],
      ['function_call', 'get_weather', fc.arguments],
      ['message', 'user', 'Weather in Oslo?'],
      ['message', 'developer', 'Answer briefly.'],
    ]);
    const asc = await client.responses.inputItems.list(last.id, { order: 'asc', include: ['message.input_image.image_url'] });
    expect(asc.data.map((i) => i.id)).toEqual(page.data.map((i) => i.id).reverse());
  });

  it('auto-pagination over limit 1 visits every item once, in order', async () => {
    const all = (await client.responses.inputItems.list(last.id, { order: 'asc' })).data.map((i) => i.id);
    const first = await client.responses.inputItems.list(last.id, { order: 'asc', limit: 1 });
    expect(first.data).toHaveLength(1);
    expect(first.has_more).toBe(true);
    const visited: string[] = [];
    for await (const item of client.responses.inputItems.list(last.id, { order: 'asc', limit: 1 })) visited.push(item.id!);
    expect(all).toHaveLength(6);
    expect(visited).toEqual(all);
  });

  it('cancel of a finished response rejects with BadRequestError not_background', async () => {
    const err = await client.responses.cancel(call.id).catch((e) => e);
    expect(err).toBeInstanceOf(OpenAI.BadRequestError);
    expect(err.code).toBe('not_background');
    expect(err.message).toContain('Only responses created with background=true can be cancelled.');
  });

  it("another account's response is NotFound for both", async () => {
    const beta = new OpenAI({ apiKey: BETA_KEY, baseURL: `${gw.url}/v1`, maxRetries: 0 });
    for (const attempt of [beta.responses.inputItems.list(call.id), beta.responses.cancel(call.id)]) {
      const err = await Promise.resolve(attempt).catch((e) => e);
      expect(err).toBeInstanceOf(OpenAI.NotFoundError);
      expect(err.code).toBe('response_not_found');
    }
  });
});
