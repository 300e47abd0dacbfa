import { encodeResponse } from './responses.response.codec';

const header = (body: Record<string, unknown>) => ({ id: 'resp_1', createdAt: 1, model: 'm', body });

describe('encodeResponse matches OpenAI’s Response schema', () => {
  it('echoes a function tool with parameters and strict (null when the caller set none), other tools as given', () => {
    const tools = [
      { type: 'function', name: 'f' },
      { type: 'function', name: 'g', parameters: { type: 'object' }, strict: true },
      { type: 'custom', name: 'c' },
    ];
    expect(encodeResponse(header({ tools }), { status: 'completed', output: [] }).tools).toEqual([
      { type: 'function', name: 'f', parameters: null, strict: null },
      { type: 'function', name: 'g', parameters: { type: 'object' }, strict: true },
      { type: 'custom', name: 'c' },
    ]);
  });

  it('leaves out usage until it is known and user when none was given, and echoes a given user', () => {
    const inProgress = encodeResponse(header({}), { status: 'in_progress', output: [] });
    expect(inProgress).not.toHaveProperty('usage');
    expect(inProgress).not.toHaveProperty('user');
    const done = encodeResponse(header({ user: 'u-1' }), {
      status: 'completed',
      output: [],
      usage: { inputTokens: 3, outputTokens: 2, totalTokens: 5 },
    });
    expect(done).toMatchObject({ user: 'u-1', usage: { input_tokens: 3, output_tokens: 2, total_tokens: 5 } });
  });
});
