import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { McpHttpClient } from './mcp-http-client';

type Handler = (msg: { id?: number; method: string }, req: http.IncomingMessage, res: http.ServerResponse) => void;

let server: http.Server;
let handler: Handler;
let url = '';
let host = '';
beforeAll(async () => {
  server = http.createServer((req, res) => {
    let text = '';
    req.on('data', (c: Buffer) => (text += c.toString('utf8')));
    req.on('end', () => handler(JSON.parse(text), req, res));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  host = `127.0.0.1:${(server.address() as AddressInfo).port}`;
  url = `http://${host}/mcp`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

const ctx = () => ({ signal: new AbortController().signal, requestId: 'r1' });
const json = (res: http.ServerResponse, body: object, headers: Record<string, string> = {}) =>
  res.writeHead(200, { 'content-type': 'application/json', ...headers }).end(JSON.stringify({ jsonrpc: '2.0', ...body }));
const client = () => new McpHttpClient({ id: 'up', url, headers: { authorization: 'Bearer configured' } }, { allowedHosts: [host] });

/** A server of the older revisions: sessions by number, tools answered by `tools`. */
function olderServer(tools: (req: http.IncomingMessage, res: http.ServerResponse, id: number) => void): { sessions: number } {
  const state = { sessions: 0 };
  handler = (msg, req, res) => {
    if (msg.id === undefined) return void res.writeHead(202).end();
    if (msg.method === 'initialize') {
      state.sessions += 1;
      return json(res, { id: msg.id, result: { protocolVersion: '2025-06-18' } }, { 'mcp-session-id': `s${state.sessions}` });
    }
    tools(req, res, msg.id);
  };
  return state;
}

describe('McpHttpClient', () => {
  it('initializes, sends the session and the configured headers, and reads an event-stream answer', async () => {
    const seen: http.IncomingHttpHeaders[] = [];
    olderServer((req, res, id) => {
      seen.push(req.headers);
      const message = JSON.stringify({ jsonrpc: '2.0', id, result: { tools: [{ name: 'read', inputSchema: { type: 'object' } }] } });
      res.writeHead(200, { 'content-type': 'text/event-stream' }).end(`: ping\n\nevent: message\ndata: ${message}\n\n`);
    });
    expect((await client().listTools(ctx())).map((t) => t.name)).toEqual(['read']);
    expect(seen[0]).toMatchObject({ 'mcp-session-id': 's1', 'mcp-protocol-version': '2025-06-18', authorization: 'Bearer configured' });
  });

  it('opens a new session once when the server forgot its session (404)', async () => {
    const state = olderServer((req, res, id) => {
      if (req.headers['mcp-session-id'] === 's1') return void res.writeHead(404).end();
      json(res, { id, result: { content: [{ type: 'text', text: 'ok' }] } });
    });
    const c = client();
    expect(await c.callTool('read', {}, ctx())).toEqual({ content: [{ type: 'text', text: 'ok' }] });
    expect(state.sessions).toBe(2);
  });

  it('turns garbage, a JSON-RPC error and an HTTP failure into gateway errors', async () => {
    olderServer((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('<html>'));
    await expect(client().listTools(ctx())).rejects.toMatchObject({ reason: 'upstream_malformed_response' });
    olderServer((_req, res, id) => json(res, { id, error: { code: -32602, message: 'Unknown tool: x' } }));
    await expect(client().callTool('x', {}, ctx())).rejects.toMatchObject({
      reason: 'upstream_error',
      message: expect.stringContaining('Unknown tool: x'),
    });
    olderServer((_req, res, id) => json(res, { id, error: { code: -32000, message: 'token configured is not valid' } }));
    const echoed = await client()
      .callTool('x', {}, ctx())
      .catch((e: Error) => e.message);
    expect(echoed).toContain('token [redacted] is not valid');
    olderServer((_req, res) => res.writeHead(503).end());
    await expect(client().listTools(ctx())).rejects.toMatchObject({
      reason: 'upstream_error',
      message: expect.stringContaining('HTTP 503'),
    });
    olderServer((_req, res, id) => json(res, { id, result: { tools: [{ description: 'no name' }] } }));
    await expect(client().listTools(ctx())).rejects.toMatchObject({ reason: 'upstream_malformed_response' });
  });

  it('speaks 2026-07-28 statelessly to a server that refuses initialize but answers server/discover', async () => {
    const seen: Array<{ method: string; version: unknown; header: unknown; session: unknown }> = [];
    handler = (msg, req, res) => {
      const m = msg as { id: number; method: string; params?: { _meta?: Record<string, unknown> } };
      const version = m.params?._meta?.['io.modelcontextprotocol/protocolVersion'];
      seen.push({ method: m.method, version, header: req.headers['mcp-method'], session: req.headers['mcp-session-id'] });
      if (m.method === 'initialize') return json(res, { id: m.id, error: { code: -32601, message: 'Method not found' } });
      if (version !== '2026-07-28') return json(res, { id: m.id, error: { code: -32600, message: 'no revision' } });
      if (m.method === 'server/discover')
        return json(res, { id: m.id, result: { supportedVersions: ['2026-07-28'], capabilities: { tools: {} } } });
      json(res, {
        id: m.id,
        result: { resultType: 'complete', ttlMs: 0, cacheScope: 'private', tools: [{ name: 'now', inputSchema: { type: 'object' } }] },
      });
    };
    expect((await client().listTools(ctx())).map((t) => t.name)).toEqual(['now']);
    expect(seen.map((s) => s.method)).toEqual(['initialize', 'server/discover', 'tools/list']);
    expect(seen[2]).toEqual({ method: 'tools/list', version: '2026-07-28', header: 'tools/list', session: undefined });
  });

  it('refuses a loopback http URL the allow-list does not admit, without connecting', async () => {
    let connected = false;
    handler = (_m, _req, res) => {
      connected = true;
      res.writeHead(500).end();
    };
    const refused = new McpHttpClient({ id: 'up', url, headers: {} }, { allowedHosts: [] });
    await expect(refused.listTools(ctx())).rejects.toMatchObject({ code: 'invalid_webhook_url' });
    expect(connected).toBe(false);
  });
});
