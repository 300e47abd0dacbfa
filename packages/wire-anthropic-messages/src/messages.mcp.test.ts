import { mcpBlocks, mcpServerDeclarations } from './messages.mcp';

describe('Anthropic mcp_servers declarations', () => {
  it('2025-04-04: tool_configuration narrows; the authorization_token is never read', () => {
    const [a, b] = mcpServerDeclarations({
      mcp_servers: [
        {
          type: 'url',
          url: 'https://a.example/mcp',
          name: 'a',
          authorization_token: 'secret',
          tool_configuration: { allowed_tools: ['x'] },
        },
        { type: 'url', url: 'https://b.example/mcp', name: 'b', tool_configuration: { enabled: false } },
      ],
    });
    expect(a).toEqual({
      label: 'a',
      url: 'https://a.example/mcp',
      allowedTools: ['x'],
      approval: { default: 'never' },
      at: [{ field: 'mcp_servers', index: 0 }],
    });
    expect(JSON.stringify(a)).not.toContain('secret');
    expect(b!.allowedTools).toEqual([]);
  });

  it('2025-11-20: the mcp_toolset of a server enables or disables its tools, and sits in its places', () => {
    const servers = [
      { type: 'url', url: 'https://a.example/mcp', name: 'a' },
      { type: 'url', url: 'https://b.example/mcp', name: 'b' },
    ];
    const [a, b] = mcpServerDeclarations({
      mcp_servers: servers,
      tools: [
        { name: 'own', input_schema: { type: 'object' } },
        { type: 'mcp_toolset', mcp_server_name: 'a', configs: { x: { enabled: false } } },
        { type: 'mcp_toolset', mcp_server_name: 'b', default_config: { enabled: false }, configs: { y: { enabled: true }, z: {} } },
      ],
    });
    expect(a).toMatchObject({
      excludedTools: ['x'],
      at: [
        { field: 'mcp_servers', index: 0 },
        { field: 'tools', index: 1 },
      ],
    });
    expect(a!.allowedTools).toBeUndefined();
    expect(b).toMatchObject({
      allowedTools: ['y'],
      at: [
        { field: 'mcp_servers', index: 1 },
        { field: 'tools', index: 2 },
      ],
    });
  });

  it('renders a call as mcp_tool_use and mcp_tool_result, a failure with is_error', () => {
    expect(mcpBlocks({ type: 'mcp-call', id: 'm1', server: 'a', name: 'x', arguments: '{"q":1}', output: '', error: 'boom' })).toEqual([
      { type: 'mcp_tool_use', id: 'm1', name: 'x', server_name: 'a', input: { q: 1 } },
      { type: 'mcp_tool_result', tool_use_id: 'm1', is_error: true, content: [{ type: 'text', text: 'boom' }] },
    ]);
    expect(mcpBlocks({ type: 'mcp-list-tools', id: 'l', server: 'a', tools: [] })).toEqual([]);
  });
});
