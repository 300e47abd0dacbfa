import { listAllows, mcpAllows, mcpEntryProblem, widerMcpEntries } from './mcp-allow-list';
import { checkMcpServerIds, mcpServerIdProblem, qualifiedToolName, splitToolName } from './mcp-names';

describe('MCP tool names', () => {
  it('are <server>__<tool>, split at the first separator (a tool name may hold one)', () => {
    expect(qualifiedToolName('sim', 'echo')).toBe('sim__echo');
    expect(splitToolName('sim__echo')).toEqual({ server: 'sim', tool: 'echo' });
    expect(splitToolName('git__read__file')).toEqual({ server: 'git', tool: 'read__file' });
    expect(splitToolName('echo')).toBeUndefined();
    expect(splitToolName('__echo')).toBeUndefined();
    expect(splitToolName('sim__')).toBeUndefined();
  });

  it('refuse a server id holding "__" and ids that collide, at load', () => {
    expect(mcpServerIdProblem('git__hub')).toMatch(/contains "__"/);
    expect(mcpServerIdProblem('sim')).toBeUndefined();
    expect(() => checkMcpServerIds(['sim', 'git__hub'])).toThrow(/git__hub/);
    expect(() => checkMcpServerIds(['git', 'docs', 'git'])).toThrow(/"git" collides with "git"/);
    expect(() => checkMcpServerIds(['Git', 'git'])).toThrow(/collides/);
    expect(() => checkMcpServerIds(['git', 'docs'])).not.toThrow();
  });
});

describe('MCP allow-lists', () => {
  it('match server, server__* and server__tool entries; absent allows everything', () => {
    expect(listAllows(undefined, 'git', 'read')).toBe(true);
    expect(listAllows(['git'], 'git', 'read')).toBe(true);
    expect(listAllows(['git__*'], 'git', 'read')).toBe(true);
    expect(listAllows(['git__read'], 'git', 'read')).toBe(true);
    expect(listAllows(['git__read'], 'git', 'write')).toBe(false);
    expect(listAllows(['git__read'], 'git')).toBe(true);
    expect(listAllows(['git'], 'docs', 'read')).toBe(false);
    expect(listAllows([], 'git')).toBe(false);
  });

  it('apply the group list and the key list together (intersection)', () => {
    const lists = { group: ['git', 'docs__search'], key: ['git__read', 'docs'] };
    expect(mcpAllows(lists, 'git', 'read')).toBe(true);
    expect(mcpAllows(lists, 'git', 'write')).toBe(false);
    expect(mcpAllows(lists, 'docs', 'search')).toBe(true);
    expect(mcpAllows(lists, 'docs', 'fetch')).toBe(false);
    expect(mcpAllows({ group: null, key: ['docs'] }, 'git')).toBe(false);
  });

  it('find the entries of a key list wider than its group list', () => {
    expect(widerMcpEntries(['git__read'], ['git'])).toEqual([]);
    expect(widerMcpEntries(['git'], ['git__read'])).toEqual(['git']);
    expect(widerMcpEntries(['git__*', 'docs__x'], ['git__*', 'docs__y'])).toEqual(['docs__x']);
    expect(widerMcpEntries(['anything'], undefined)).toEqual([]);
  });

  it('refuse entries naming no configured server', () => {
    expect(mcpEntryProblem('git__read', ['git'])).toBeUndefined();
    expect(mcpEntryProblem('nope__read', ['git'])).toMatch(/no configured MCP server/);
  });
});
