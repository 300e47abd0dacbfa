import { mcpDeclarations, mcpInput, mcpItemEvents } from './responses.mcp';

describe('Responses hosted MCP declarations', () => {
  it('reads server_label, server_url, allowed_tools and require_approval; never the credentials', () => {
    const [d, e, f] = mcpDeclarations([
      { type: 'function', name: 'f' },
      {
        type: 'mcp',
        server_label: 'a',
        server_url: 'https://a.example/mcp',
        allowed_tools: ['x'],
        authorization: 'secret',
        headers: { k: 'secret' },
      },
      { type: 'mcp', server_label: 'b', allowed_tools: { tool_names: ['y'] }, require_approval: 'never' },
      { type: 'mcp', server_label: 'c', require_approval: { never: { tool_names: ['z'] }, always: { tool_names: ['w'] } } },
    ]);
    expect(d).toEqual({
      label: 'a',
      url: 'https://a.example/mcp',
      allowedTools: ['x'],
      approval: { default: 'always' },
      at: [{ field: 'tools', index: 1 }],
    });
    expect(JSON.stringify([d, e, f])).not.toContain('secret');
    expect(e).toMatchObject({ allowedTools: ['y'], approval: { default: 'never' } });
    expect(f!.approval).toEqual({ default: 'always', always: ['w'], never: ['z'] });
  });

  it('reads approvals against requests of the input or the previous output, and drops MCP items from the input', () => {
    const request = { id: 'mcpr_1', type: 'mcp_approval_request', server_label: 'a', name: 'x', arguments: '{"q":1}' };
    const input = [
      { role: 'user', content: 'hi' },
      { type: 'mcp_list_tools', id: 'l', server_label: 'a', tools: [] },
      { type: 'mcp_approval_response', approval_request_id: 'mcpr_1', approve: false, reason: 'no' },
      { type: 'mcp_approval_response', approval_request_id: 'unknown', approve: true },
    ];
    const fromPrevious = mcpInput(input, [request]);
    expect(fromPrevious.input).toEqual([{ role: 'user', content: 'hi' }]);
    expect(fromPrevious.approvals).toEqual([
      { requestId: 'mcpr_1', approve: false, reason: 'no', server: 'a', name: 'x', arguments: '{"q":1}' },
    ]);
    expect(mcpInput([request, ...input], undefined).approvals).toHaveLength(1);
    expect(mcpInput('text', undefined)).toEqual({ input: 'text', approvals: [] });
  });

  it("streams a failed call as OpenAI's failed event", () => {
    const types = mcpItemEvents({ type: 'mcp-call', id: 'm', server: 'a', name: 'x', arguments: '{}', output: '', error: 'boom' }, 3).map(
      (e) => e.type,
    );
    expect(types).toEqual([
      'response.output_item.added',
      'response.mcp_call.in_progress',
      'response.mcp_call_arguments.delta',
      'response.mcp_call_arguments.done',
      'response.mcp_call.failed',
      'response.output_item.done',
    ]);
  });
});
