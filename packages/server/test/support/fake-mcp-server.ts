import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';

/** How the fake answers: over JSON or an event stream, or broken (HTTP 500, garbage, silence). */
export type FakeMcpMode = 'json' | 'sse' | 'http-500' | 'garbage' | 'silent';

export interface FakeMcpServer {
  url: string;
  mode: FakeMcpMode;
  /** every request's headers, in order */
  seen: http.IncomingHttpHeaders[];
  calls: Array<{ name: string; arguments: unknown }>;
  close(): Promise<void>;
}

/**
 * An MCP server of the older revisions on 127.0.0.1 (Streamable HTTP as the specification describes it): `initialize`
 * issues an Mcp-Session-Id that every later request must carry (404 for an unknown one), `tools/list`, `tools/call`
 * (each tool answers `<tool>:<arguments as JSON>`), answers in JSON or as an event stream. A required header
 * refuses callers without it (401).
 */
export async function startFakeMcpServer(opts: {
  tools: string[];
  requireHeader?: [string, string];
  mode?: FakeMcpMode;
}): Promise<FakeMcpServer> {
  const sessions = new Set<string>();
  const state: Omit<FakeMcpServer, 'url' | 'close'> = { mode: opts.mode ?? 'json', seen: [], calls: [] };
  const server = http.createServer((req, res) => {
    let text = '';
    req.on('data', (c: Buffer) => (text += c.toString('utf8')));
    req.on('end', () => {
      state.seen.push(req.headers);
      if (state.mode === 'silent') return; // never answers
      if (state.mode === 'http-500') return void res.writeHead(500).end('upstream broke');
      if (state.mode === 'garbage') return void res.writeHead(200, { 'content-type': 'application/json' }).end('<html>not json');
      if (req.method !== 'POST') return void res.writeHead(405).end();
      const [name, value] = opts.requireHeader ?? [];
      if (name && req.headers[name] !== value) return void res.writeHead(401).end();
      const msg = JSON.parse(text) as { id?: number | string; method?: string; params?: Record<string, unknown> };
      if (msg.id === undefined) return void res.writeHead(202).end();
      const send = (body: object, headers: Record<string, string> = {}) => {
        const message = JSON.stringify({ jsonrpc: '2.0', id: msg.id, ...body });
        if (state.mode === 'sse')
          return void res.writeHead(200, { 'content-type': 'text/event-stream', ...headers }).end(`event: message\ndata: ${message}\n\n`);
        res.writeHead(200, { 'content-type': 'application/json', ...headers }).end(message);
      };
      if (msg.method === 'initialize') {
        const id = randomUUID();
        sessions.add(id);
        return send(
          { result: { protocolVersion: '2025-06-18', capabilities: { tools: {} }, serverInfo: { name: 'fake', version: '1' } } },
          { 'mcp-session-id': id },
        );
      }
      if (!sessions.has(String(req.headers['mcp-session-id']))) return void res.writeHead(404).end();
      if (msg.method === 'tools/list')
        return send({
          result: { tools: opts.tools.map((t) => ({ name: t, description: `the ${t} tool`, inputSchema: { type: 'object' } })) },
        });
      if (msg.method === 'tools/call') {
        const p = msg.params ?? {};
        if (!opts.tools.includes(String(p.name))) return send({ error: { code: -32602, message: `Unknown tool: ${String(p.name)}` } });
        state.calls.push({ name: String(p.name), arguments: p.arguments });
        return send({ result: { content: [{ type: 'text', text: `${String(p.name)}:${JSON.stringify(p.arguments ?? {})}` }] } });
      }
      send({ error: { code: -32601, message: 'Method not found' } });
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
  return Object.assign(state, {
    url,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  });
}
