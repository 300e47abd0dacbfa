import http from 'node:http';
import https from 'node:https';
import type { Readable } from 'node:stream';
import type { KeepAliveAgents } from './keep-alive-agents';

export interface SendRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string;
  signal: AbortSignal;
}

export interface SentResponse {
  status: number;
  headers: Record<string, string | undefined>;
  stream: Readable;
}

/**
 * The lean transport of text calls: node's own http client over the same keep-alive agents. The default;
 * `"transport": "axios"` per provider selects axios instead. It follows no redirects, asks for no compression
 * (so nothing needs decompressing) and hands back the body unread, like the axios path.
 */
export function nodeSend(agents: KeepAliveAgents, r: SendRequest): Promise<SentResponse> {
  return new Promise((resolve, reject) => {
    const url = new URL(r.url);
    const secure = url.protocol === 'https:';
    const headers: Record<string, string> = { ...r.headers };
    if (r.body !== undefined) headers['content-length'] = String(Buffer.byteLength(r.body));
    const req = (secure ? https : http).request(
      url,
      { method: r.method, headers, agent: secure ? agents.httpsAgent : agents.httpAgent, signal: r.signal },
      (res) => {
        const flat: Record<string, string | undefined> = {};
        for (const [k, v] of Object.entries(res.headers)) if (v !== undefined) flat[k] = Array.isArray(v) ? v.join(', ') : v;
        resolve({ status: res.statusCode ?? 0, headers: flat, stream: res });
      },
    );
    req.on('error', reject);
    req.end(r.body);
  });
}
