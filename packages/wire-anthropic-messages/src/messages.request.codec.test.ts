import type { ModelSpec } from '@gateway/core';
import { decodeMessagesRequest as decodeChecked } from './messages.request.codec';
import type { MessagesRequestBody } from './messages.request.schema';
import { refusal } from '@gateway/testkit';

const thinker: ModelSpec = { id: 'sim-chat', kind: 'text', deployments: [], reasoningEfforts: ['none', 'low', 'medium', 'high'] };
const plain: ModelSpec = { id: 'plain', kind: 'text', reasoningEfforts: [], deployments: [] };
const undeclared: ModelSpec = { id: 'open', kind: 'text', deployments: [] };
// Bodies here are written loosely (as JSON arrives), standing in for ones the schema accepted.
const decodeMessagesRequest = (body: object, model: ModelSpec) => decodeChecked(body as MessagesRequestBody, model);
const base = { model: 'sim-chat', max_tokens: 2000, messages: [{ role: 'user', content: 'hi' }] };

describe('decodeMessagesRequest', () => {
  it('maps sampling fields, system blocks, metadata and keeps unknown fields in extra', () => {
    const { request, thinking } = decodeMessagesRequest(
      {
        ...base,
        temperature: 0.5,
        top_p: 0.9,
        top_k: 5,
        stop_sequences: ['END'],
        metadata: { user_id: 'u1' },
        system: [
          { type: 'text', text: 'Be brief.' },
          { type: 'text', text: 'Be kind.' },
        ],
        speed: 'fast',
        service_tier: 'auto',
        mcp_servers: [],
      },
      thinker,
    );
    expect(request).toMatchObject({
      model: 'sim-chat',
      system: 'Be brief.\n\nBe kind.',
      maxOutputTokens: 2000,
      temperature: 0.5,
      topP: 0.9,
      topK: 5,
      stopSequences: ['END'],
      user: 'u1',
      messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }],
    });
    expect(request.extra).toEqual({ speed: 'fast', service_tier: 'auto', mcp_servers: [] });
    expect(request.reasoning).toBeUndefined();
    expect(thinking).toBe('off');
  });

  it('turns tool_use / tool_result into canonical calls and a tool message placed before the user text', () => {
    const { request } = decodeMessagesRequest(
      {
        ...base,
        messages: [
          { role: 'user', content: 'weather?' },
          {
            role: 'assistant',
            content: [
              { type: 'thinking', thinking: 'hm', signature: 'sig' },
              { type: 'tool_use', id: 'tu1', name: 'get_weather', input: { city: 'Paris' } },
            ],
          },
          {
            role: 'user',
            content: [
              { type: 'tool_result', tool_use_id: 'tu1', content: 'sunny' },
              { type: 'text', text: 'thanks' },
            ],
          },
        ],
      },
      thinker,
    );
    expect(request.messages.slice(1)).toEqual([
      {
        role: 'assistant',
        content: [
          { type: 'reasoning', text: 'hm', signature: 'sig' },
          { type: 'tool-call', id: 'tu1', name: 'get_weather', arguments: '{"city":"Paris"}' },
        ],
      },
      {
        role: 'tool',
        content: [{ type: 'tool-result', toolCallId: 'tu1', name: 'get_weather', content: [{ type: 'text', text: 'sunny' }] }],
      },
      { role: 'user', content: [{ type: 'text', text: 'thanks' }] },
    ]);
  });

  it('reads base64 and url images, refuses Files API sources', () => {
    const img = (source: object) => ({ ...base, messages: [{ role: 'user', content: [{ type: 'image', source }] }] });
    expect(
      decodeMessagesRequest(img({ type: 'base64', media_type: 'image/png', data: 'AAA' }), thinker).request.messages[0]!.content,
    ).toEqual([{ type: 'image', mediaType: 'image/png', data: 'AAA' }]);
    expect(decodeMessagesRequest(img({ type: 'url', url: 'https://x/y.png' }), thinker).request.messages[0]!.content).toEqual([
      { type: 'image', url: 'https://x/y.png' },
    ]);
    expect(refusal(() => decodeMessagesRequest(img({ type: 'file', file_id: 'f1' }), thinker))).toMatchObject({
      code: 'unsupported_image_source',
      param: 'messages[0].content[0].source.type',
    });
  });

  it('refuses block types with no canonical meaning, naming the block', () => {
    const body = { ...base, messages: [{ role: 'user', content: [{ type: 'search_result', content: [] }] }] };
    expect(refusal(() => decodeMessagesRequest(body, thinker))).toMatchObject({
      code: 'unsupported_content_block',
      param: 'messages[0].content[0].type',
    });
  });

  it('maps thinking to canonical reasoning and checks the budget against max_tokens', () => {
    const on = decodeMessagesRequest({ ...base, thinking: { type: 'enabled', budget_tokens: 1024 } }, thinker);
    expect(on.request.reasoning).toEqual({ budgetTokens: 1024, includeThoughts: true });
    expect(on.thinking).toBe('summarized');
    const hidden = decodeMessagesRequest({ ...base, thinking: { type: 'adaptive', display: 'omitted' } }, thinker);
    expect(hidden).toMatchObject({ thinking: 'omitted', request: { reasoning: { includeThoughts: false } } });
    expect(
      refusal(() => decodeMessagesRequest({ ...base, max_tokens: 1024, thinking: { type: 'enabled', budget_tokens: 1024 } }, thinker)),
    ).toMatchObject({ code: 'invalid_budget_tokens' });
  });

  it('refuses enabled thinking on a model that cannot think, but lets adaptive pass as no thinking', () => {
    expect(refusal(() => decodeMessagesRequest({ ...base, thinking: { type: 'enabled', budget_tokens: 1500 } }, plain))).toMatchObject({
      code: 'unsupported_reasoning_effort',
      param: 'thinking',
    });
    expect(decodeMessagesRequest({ ...base, thinking: { type: 'adaptive' } }, plain)).toMatchObject({
      thinking: 'off',
      request: { reasoning: undefined },
    });
  });

  it('forwards effort and every thinking config on a model whose catalogue entry declares no efforts', () => {
    expect(decodeMessagesRequest({ ...base, output_config: { effort: 'max' }, thinking: { type: 'adaptive' } }, undeclared)).toMatchObject({
      thinking: 'summarized',
      request: { reasoning: { effort: 'max', includeThoughts: true }, native: { body: { thinking: { type: 'adaptive' } } } },
    });
    expect(decodeMessagesRequest({ ...base, thinking: { type: 'enabled', budget_tokens: 1500 } }, undeclared)).toMatchObject({
      request: { reasoning: { budgetTokens: 1500, includeThoughts: true } },
    });
  });

  it('checks output_config.effort against the model and keeps thinking off without a thinking config', () => {
    expect(decodeMessagesRequest({ ...base, output_config: { effort: 'low' } }, thinker)).toMatchObject({
      thinking: 'off',
      request: { reasoning: { effort: 'low', includeThoughts: false } },
    });
    expect(refusal(() => decodeMessagesRequest({ ...base, output_config: { effort: 'max' } }, thinker))).toMatchObject({
      code: 'unsupported_reasoning_effort',
      param: 'output_config.effort',
    });
    expect(refusal(() => decodeMessagesRequest({ ...base, output_config: { effort: 'low' } }, plain))).toMatchObject({
      code: 'unsupported_reasoning_effort',
    });
  });

  it('maps tools and every tool_choice type', () => {
    const tools = [{ name: 'get_weather', description: 'd', input_schema: { type: 'object', properties: {} } }];
    const choice = (tool_choice: object) => decodeMessagesRequest({ ...base, tools, tool_choice }, thinker).request.toolChoice;
    expect(decodeMessagesRequest({ ...base, tools }, thinker).request.tools).toEqual([
      { name: 'get_weather', description: 'd', parameters: { type: 'object', properties: {} } },
    ]);
    expect(choice({ type: 'auto' })).toBe('auto');
    expect(choice({ type: 'any' })).toBe('required');
    expect(choice({ type: 'none' })).toBe('none');
    expect(choice({ type: 'tool', name: 'get_weather' })).toEqual({ type: 'tool', name: 'get_weather' });
    expect(refusal(() => choice({ type: 'tool', name: 'nope' }))).toMatchObject({ code: 'unknown_tool', param: 'tool_choice.name' });
    expect(refusal(() => decodeMessagesRequest({ ...base, tool_choice: { type: 'any' } }, thinker))).toMatchObject({
      code: 'tools_required',
    });
  });

  it('keeps server tools as hosted tools, refuses Anthropic-defined client tools and custom tools without input_schema', () => {
    const server = { type: 'web_search_20250305', name: 'web_search', max_uses: 3 };
    const decoded = decodeMessagesRequest({ ...base, tools: [server] }, thinker).request;
    expect(decoded.hostedTools).toEqual([
      { format: 'anthropic-messages', type: 'web_search_20250305', param: 'tools[0]', definition: server },
    ]);
    expect(decoded.tools).toEqual([]);
    expect(refusal(() => decodeMessagesRequest({ ...base, tools: [{ type: 'bash_20250124', name: 'bash' }] }, thinker))).toMatchObject({
      code: 'unsupported_tool',
      param: 'tools[0].type',
    });
    expect(refusal(() => decodeMessagesRequest({ ...base, tools: [{ name: 'x' }] }, thinker))).toMatchObject({
      param: 'tools[0].input_schema',
    });
  });

  it('reads a JSON output format from output_config.format or the older output_format', () => {
    const schema = { type: 'object', properties: { a: { type: 'string' } } };
    expect(
      decodeMessagesRequest({ ...base, output_config: { format: { type: 'json_schema', schema } } }, thinker).request.responseFormat,
    ).toEqual({ type: 'json', schema });
    expect(decodeMessagesRequest({ ...base, output_format: { type: 'json_schema', schema } }, thinker).request.responseFormat).toEqual({
      type: 'json',
      schema,
    });
  });

  it('folds role "system" messages into the system prompt and drops redacted thinking', () => {
    const { request } = decodeMessagesRequest(
      {
        ...base,
        system: 'A',
        messages: [
          { role: 'system', content: 'B' },
          {
            role: 'assistant',
            content: [
              { type: 'redacted_thinking', data: 'x' },
              { type: 'text', text: 'ok' },
            ],
          },
          { role: 'user', content: 'go' },
        ],
      },
      thinker,
    );
    expect(request.system).toBe('A\n\nB');
    expect(request.messages).toEqual([
      { role: 'assistant', content: [{ type: 'text', text: 'ok' }] },
      { role: 'user', content: [{ type: 'text', text: 'go' }] },
    ]);
  });
});
