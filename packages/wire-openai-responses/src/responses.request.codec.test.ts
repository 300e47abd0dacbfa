import type { GatewayError, ModelSpec } from '@gateway/core';
import { decodeResponsesRequest } from './responses.request.codec';

const reasoningModel: ModelSpec = { id: 'r', kind: 'text', reasoningEfforts: ['low', 'high'], deployments: [] };
const plainModel: ModelSpec = { id: 'p', kind: 'text', reasoningEfforts: [], deployments: [] };
const undeclaredModel: ModelSpec = { id: 'o', kind: 'text', deployments: [] };
const noCompaction = () => {
  throw new Error('no compaction expected');
};
const decode = (body: Record<string, unknown>, model = reasoningModel, previous?: Parameters<typeof decodeResponsesRequest>[2]) =>
  decodeResponsesRequest({ model: model.id, ...body }, model, previous, noCompaction);
const failure = (f: () => unknown): GatewayError => {
  try {
    f();
  } catch (e) {
    return e as GatewayError;
  }
  throw new Error('expected a failure');
};

describe('decodeResponsesRequest', () => {
  it('maps items to canonical messages, joining assistant-side and tool-output runs', () => {
    const { request, conversation } = decode({
      instructions: 'Be brief.',
      input: [
        { role: 'developer', content: 'Use metric units.' },
        {
          role: 'user',
          content: [
            { type: 'input_text', text: 'hi' },
            { type: 'input_image', image_url: 'data:image/png;base64,AAAA' },
          ],
        },
        { type: 'reasoning', summary: [{ type: 'summary_text', text: 'thinking' }], encrypted_content: 'sig' },
        { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'calling' }] },
        { type: 'function_call', call_id: 'c1', name: 'weather', arguments: '{}' },
        { type: 'function_call', call_id: 'c2', name: 'time', arguments: '{}' },
        { type: 'function_call_output', call_id: 'c1', output: 'sunny' },
        { type: 'function_call_output', call_id: 'c2', output: [{ type: 'input_text', text: 'noon' }] },
      ],
    });
    expect(request.system).toBe('Be brief.\n\nUse metric units.');
    expect(conversation.system).toBe('Use metric units.');
    expect(request.messages).toEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'hi' },
          { type: 'image', mediaType: 'image/png', data: 'AAAA' },
        ],
      },
      {
        role: 'assistant',
        content: [
          { type: 'reasoning', text: 'thinking', signature: 'sig' },
          { type: 'text', text: 'calling' },
          { type: 'tool-call', id: 'c1', name: 'weather', arguments: '{}' },
          { type: 'tool-call', id: 'c2', name: 'time', arguments: '{}' },
        ],
      },
      {
        role: 'tool',
        content: [
          { type: 'tool-result', toolCallId: 'c1', name: 'weather', content: [{ type: 'text', text: 'sunny' }] },
          { type: 'tool-result', toolCallId: 'c2', name: 'time', content: [{ type: 'text', text: 'noon' }] },
        ],
      },
    ]);
  });

  it('continues a previous conversation; its instructions do not carry over, its system items do', () => {
    const previous = {
      system: 'From a developer item.',
      messages: [
        { role: 'user' as const, content: [{ type: 'text' as const, text: 'q' }] },
        { role: 'assistant' as const, content: [{ type: 'tool-call' as const, id: 'c9', name: 'lookup', arguments: '{}' }] },
      ],
    };
    const { request } = decode({ input: [{ type: 'function_call_output', call_id: 'c9', output: 'x' }] }, reasoningModel, previous);
    expect(request.system).toBe('From a developer item.');
    expect(request.messages).toHaveLength(3);
    expect(request.messages[2]).toEqual({
      role: 'tool',
      content: [{ type: 'tool-result', toolCallId: 'c9', name: 'lookup', content: [{ type: 'text', text: 'x' }] }],
    });
  });

  it('maps settings and names the fields it has no place for', () => {
    const { request, unread } = decode({
      input: 'hi',
      max_output_tokens: 50,
      temperature: 0.5,
      top_p: 0.9,
      tool_choice: 'disabled',
      user: 'u1',
      prompt_cache_key: 'k',
      tools: [{ type: 'function', name: 'f', parameters: { type: 'object' } }],
      reasoning: { effort: 'high', summary: 'auto' },
      text: { format: { type: 'json_schema', name: 'out', schema: { type: 'object' } } },
    });
    expect(request).toMatchObject({
      maxOutputTokens: 50,
      temperature: 0.5,
      topP: 0.9,
      toolChoice: 'none',
      user: 'u1',
      tools: [{ name: 'f', parameters: { type: 'object' } }],
      reasoning: { effort: 'high', includeThoughts: true },
      responseFormat: { type: 'json', name: 'out', schema: { type: 'object' } },
    });
    expect(unread).toEqual(['prompt_cache_key']);
    expect(
      decode({ input: 'hi', tools: [{ type: 'function', name: 'f' }], tool_choice: { type: 'function', name: 'f' } }).request.toolChoice,
    ).toEqual({ type: 'tool', name: 'f' });
  });

  it('forwards reasoning on a model whose catalogue entry declares no efforts', () => {
    const decodeFor = (reasoning: object) => decode({ input: 'x', reasoning }, undeclaredModel).request.reasoning;
    expect(decodeFor({ effort: 'xhigh', summary: 'auto' })).toEqual({ effort: 'xhigh', includeThoughts: true });
    expect(decodeFor({ summary: 'detailed' })).toEqual({ includeThoughts: true });
  });

  it.each([
    [
      'reasoning on a plain model',
      { input: 'x', reasoning: { effort: 'low' } },
      plainModel,
      'unsupported_reasoning_effort',
      'reasoning.effort',
    ],
    [
      'a summary on a plain model',
      { input: 'x', reasoning: { summary: 'auto' } },
      plainModel,
      'unsupported_reasoning_effort',
      'reasoning.summary',
    ],
    [
      'an effort the model lacks',
      { input: 'x', reasoning: { effort: 'max' } },
      reasoningModel,
      'unsupported_reasoning_effort',
      'reasoning.effort',
    ],
    ['a hosted tool', { input: 'x', tools: [{ type: 'web_search' }] }, reasoningModel, 'unsupported_tool_type', 'tools[0].type'],
    [
      'an unknown forced tool',
      { input: 'x', tools: [{ type: 'function', name: 'f' }], tool_choice: { type: 'function', name: 'g' } },
      reasoningModel,
      'unknown_tool',
      'tool_choice.name',
    ],
    [
      'a hosted tool choice',
      { input: 'x', tool_choice: { type: 'web_search_preview' } },
      reasoningModel,
      'unsupported_tool_choice',
      'tool_choice',
    ],
    ['required without tools', { input: 'x', tool_choice: 'required' }, reasoningModel, 'tools_required', 'tool_choice'],
    ['no input at all', {}, reasoningModel, 'missing_input', 'input'],
    ['background', { input: 'x', background: true }, reasoningModel, 'unsupported_background', 'background'],
    ['an item_reference', { input: [{ type: 'item_reference', id: 'msg_1' }] }, reasoningModel, 'unsupported_input_item', 'input[0].type'],
    [
      'an input_file part',
      { input: [{ role: 'user', content: [{ type: 'input_file', file_id: 'f' }] }] },
      reasoningModel,
      'unsupported_content_part',
      'input[0].content[0].type',
    ],
    [
      'an image by file id',
      { input: [{ role: 'user', content: [{ type: 'input_image', file_id: 'f' }] }] },
      reasoningModel,
      'unsupported_image_source',
      'input[0].content[0].image_url',
    ],
  ])('refuses %s', (_name, body, model, code, param) => {
    expect(failure(() => decode(body, model))).toMatchObject({ reason: 'invalid_request', code, param });
  });
});
