import request from 'supertest';
import { ALPHA_KEY, startTestGateway, type TestGateway } from './support/test-gateway';

let gw: TestGateway;
beforeAll(async () => {
  gw = await startTestGateway();
});
afterAll(() => gw.stop());

const create = (body: Record<string, unknown>) =>
  request(gw.app)
    .post('/v1/responses')
    .set('Authorization', `Bearer ${ALPHA_KEY}`)
    .send({ model: 'sim-chat', ...body });
const fn = (name: string) => ({
  type: 'function',
  name,
  parameters: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
});
const events = (text: string) =>
  text
    .split('\n\n')
    .map((block) => /^data: (.*)$/m.exec(block)?.[1])
    .filter((d): d is string => !!d && d !== '[DONE]')
    .map((d) => JSON.parse(d));

describe('Responses namespace tools', () => {
  const tools = [{ type: 'namespace', name: 'files', description: 'File tools', tools: [fn('read')] }];

  it('are flattened upstream and the call comes back with its own name and the namespace', async () => {
    const res = await create({ input: 'Read a file', tools, tool_choice: 'required' });
    expect(res.status).toBe(200);
    expect(res.body.output[0]).toMatchObject({ type: 'function_call', name: 'read', namespace: 'files' });
    expect(JSON.parse(res.body.output[0].arguments)).toEqual({ path: expect.any(String) });
  });

  it('streams the same items, and a namespaced call can be sent back', async () => {
    const res = await create({ input: 'Read a file', tools, tool_choice: 'required', stream: true });
    const done = events(res.text).find((e) => e.type === 'response.output_item.done');
    expect(done.item).toMatchObject({ type: 'function_call', name: 'read', namespace: 'files' });
    const next = await create({
      tools,
      input: [
        { role: 'user', content: 'Read a file' },
        done.item,
        { type: 'function_call_output', call_id: done.item.call_id, output: 'file body 42' },
      ],
    });
    expect(next.status).toBe(200);
    expect(next.body.output[0].content[0].text).toContain('file body 42');
  });
});

describe('a namespaced tool the prompt names', () => {
  it('is called under tool_choice auto, as Codex declares exec_command in a namespace', async () => {
    const tools = [{ type: 'namespace', name: 'unified_exec', description: 'Shell', tools: [fn('exec_command'), fn('write_stdin')] }];
    const res = await create({ input: 'please call exec_command', tools, tool_choice: 'auto' });
    expect(res.status).toBe(200);
    expect(res.body.output[0]).toMatchObject({ type: 'function_call', name: 'exec_command', namespace: 'unified_exec' });
  });
});

describe('Responses custom tools', () => {
  const tools = [
    {
      type: 'custom',
      name: 'apply_patch',
      description: 'Apply a patch',
      format: { type: 'grammar', syntax: 'lark', definition: 'start: /.+/' },
    },
  ];

  it('are answered as custom_tool_call items with a text input, streaming or not', async () => {
    const res = await create({ input: 'Patch it', tools, tool_choice: 'required' });
    expect(res.body.output[0]).toEqual({
      type: 'custom_tool_call',
      id: expect.any(String),
      call_id: expect.any(String),
      name: 'apply_patch',
      input: expect.any(String),
      status: 'completed',
    });
    const streamed = events((await create({ input: 'Patch it', tools, tool_choice: 'required', stream: true })).text);
    expect(streamed.find((e) => e.type === 'response.output_item.done').item).toMatchObject({
      type: 'custom_tool_call',
      name: 'apply_patch',
    });
    expect(streamed.find((e) => e.type === 'response.custom_tool_call_input.done')).toMatchObject({ input: expect.any(String) });
    expect(streamed.some((e) => e.type === 'response.function_call_arguments.delta')).toBe(false);
  });

  it('take custom_tool_call and custom_tool_call_output input items', async () => {
    const res = await create({
      tools,
      input: [
        { role: 'user', content: 'Patch it' },
        { type: 'custom_tool_call', call_id: 'call_1', name: 'apply_patch', input: '*** Begin Patch' },
        { type: 'custom_tool_call_output', call_id: 'call_1', output: 'patch applied' },
      ],
    });
    expect(res.status).toBe(200);
    expect(res.body.output[0].content[0].text).toContain('patch applied');
  });
});

describe('Responses hosted tools and additional_tools', () => {
  it('hosted tools are dropped and named in x-gateway-warnings', async () => {
    const res = await create({
      input: 'Search the web',
      tools: [{ type: 'web_search' }, { type: 'file_search', vector_store_ids: ['vs_1'] }, fn('read')],
    });
    expect(res.status).toBe(200);
    expect(res.headers['x-gateway-warnings']).toContain('web_search: hosted tool dropped');
    expect(res.headers['x-gateway-warnings']).toContain('file_search: hosted tool dropped');
    const streamed = await create({ input: 'Search the web', tools: [{ type: 'web_search' }], stream: true });
    expect(streamed.headers['x-gateway-warnings']).toContain('web_search: hosted tool dropped');
  });

  it('additional_tools input items add their tools', async () => {
    const res = await create({
      input: [
        { type: 'additional_tools', role: 'developer', tools: [fn('lookup')] },
        { role: 'user', content: 'Use it' },
      ],
      tool_choice: 'required',
    });
    expect(res.status).toBe(200);
    expect(res.body.output[0]).toMatchObject({ type: 'function_call', name: 'lookup' });
  });
});
