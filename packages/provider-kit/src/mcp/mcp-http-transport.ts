import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import type { IncomingMessage } from 'node:http';
import { checkWebhookUrl, GatewayError, hostOf, isAllowedHost, isForbiddenAddress, type WebhookUrlRule } from '@gateway/core';
import { parseSse } from '../sse-parser';

export type HostLookup = (hostname: string) => Promise<Array<{ address: string; family: 4 | 6 }>>;

const systemLookup: HostLookup = async (host) =>
  (await dns.promises.lookup(host, { all: true, verbatim: true })).map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));

/** What one POST to an MCP server answered: its status and headers, and the JSON-RPC messages of its body. */
export interface McpHttpAnswer {
  status: number;
  headers: IncomingMessage['headers'];
  /** the messages read (JSON body, or SSE events up to the answer of `waitFor`) */
  messages: unknown[];
}

export interface McpPostOptions {
  url: string;
  headers: Record<string, string>;
  body: unknown;
  /** the request id whose answer ends the reading of an event stream */
  waitFor?: string | number;
  signal: AbortSignal;
  rule: WebhookUrlRule;
  lookup?: HostLookup;
  /** the most bytes of an answer read */
  maxBytes?: number;
}

const unavailable = (message: string) => new GatewayError('upstream_unavailable', message, { code: 'mcp_server_unreachable' });
const malformed = (message: string) => new GatewayError('upstream_malformed_response', message, { code: 'mcp_malformed_answer' });

/**
 * One POST under the webhook rules (core webhook-url.ts): the URL checked again, every resolved address public
 * unless WEBHOOK_ALLOWED_HOSTS admits the host, the connection pinned to the checked address, redirects never
 * followed. The answer is JSON or an event stream (Streamable HTTP), read up to maxBytes.
 */
export async function postMcp(o: McpPostOptions): Promise<McpHttpAnswer> {
  const url = checkWebhookUrl(o.url, o.rule, 'url');
  const host = hostOf(url);
  const addresses = net.isIP(host)
    ? [{ address: host, family: net.isIP(host) === 6 ? (6 as const) : (4 as const) }]
    : await (o.lookup ?? systemLookup)(host).catch(() => []);
  const first = addresses[0];
  if (!first || (!isAllowedHost(o.rule, url) && addresses.some((a) => isForbiddenAddress(a.address))))
    throw unavailable(`the host ${host} does not resolve to a public address`);
  const payload = JSON.stringify(o.body);
  const client = url.protocol === 'https:' ? https : http;
  const res = await new Promise<IncomingMessage>((resolve, reject) => {
    const req = client.request(url, {
      method: 'POST',
      headers: {
        ...o.headers,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'content-length': Buffer.byteLength(payload),
      },
      signal: o.signal,
      lookup: (_h, _opts, cb) => cb(null, [{ address: first.address, family: first.family }] as never, first.family),
    });
    req.on('response', resolve);
    req.on('error', (e) =>
      reject(
        o.signal.aborted
          ? e
          : unavailable(`the MCP server at ${url.host} is unreachable (${(e as NodeJS.ErrnoException).code ?? 'error'})`),
      ),
    );
    req.end(payload);
  });
  return { status: res.statusCode ?? 0, headers: res.headers, messages: await readMessages(res, o) };
}

async function readMessages(res: IncomingMessage, o: McpPostOptions): Promise<unknown[]> {
  const max = o.maxBytes ?? 16 * 1024 * 1024;
  const type = String(res.headers['content-type'] ?? '').toLowerCase();
  let read = 0;
  const limited = async function* () {
    for await (const chunk of res as AsyncIterable<Buffer>) {
      read += chunk.length;
      if (read > max) throw malformed(`the MCP server's answer is larger than ${max} bytes`);
      yield chunk;
    }
  };
  try {
    if (type.startsWith('text/event-stream')) {
      const out: unknown[] = [];
      for await (const ev of parseSse(limited())) {
        if (!ev.data.trim()) continue;
        const message = parseJson(ev.data);
        out.push(message);
        if (o.waitFor !== undefined && (message as { id?: unknown }).id === o.waitFor) break;
      }
      return out;
    }
    const chunks: Buffer[] = [];
    for await (const c of limited()) chunks.push(c);
    const text = Buffer.concat(chunks).toString('utf8');
    if (!text.trim()) return [];
    if (!type.includes('json')) return res.statusCode && res.statusCode < 300 ? [parseJson(text)] : [];
    const parsed = parseJson(text);
    return Array.isArray(parsed) ? parsed : [parsed];
  } finally {
    res.destroy();
  }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw malformed('the MCP server answered something other than JSON-RPC');
  }
}
