import http from 'node:http';
import https from 'node:https';
import type { Readable } from 'node:stream';
import type { KeepAliveAgents } from './keep-alive-agents';

export type HopLookup = (hostname: string, options: object) => Promise<{ address: string; family: 4 | 6 }>;

/** One request as the upstream client hands it to a sender: the URL with its query, headers final. */
export interface SendRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  /** a JSON text, or a multipart form (the axios sender only) */
  body?: string | FormData;
  signal: AbortSignal;
  /** where a download hop may connect (upstream-client.ts; the axios sender only) */
  lookup?: HopLookup;
}

export interface SentResponse {
  status: number;
  headers: Record<string, string | undefined>;
  stream: Readable;
}

/**
 * The default sender: node's own http client over the provider's keep-alive agents, measured faster than axios
 * (docs/adr/0002-node-http-transport.md). It follows no redirects, asks for no compression (so nothing needs
 * decompressing) and hands back the body unread.
 */
export function nodeSend(agents: KeepAliveAgents, r: SendRequest): Promise<SentResponse> {
  // forms and checked download hops are the axios sender's (the client routes them there)
  if ((r.body !== undefined && typeof r.body !== 'string') || r.lookup)
    return Promise.reject(new TypeError('nodeSend takes text bodies only'));
  const body = r.body;
  return new Promise((resolve, reject) => {
    const url = new URL(r.url);
    const secure = url.protocol === 'https:';
    const headers: Record<string, string> = { ...r.headers };
    if (body !== undefined) headers['content-length'] = String(Buffer.byteLength(body));
    const req = (secure ? https : http).request(
      url,
      {
        method: r.method,
        headers,
        agent: secure ? agents.httpsAgent : agents.httpAgent,
        signal: r.signal,
      },
      (res) => {
        const flat: Record<string, string | undefined> = {};
        for (const [k, v] of Object.entries(res.headers)) if (v !== undefined) flat[k] = Array.isArray(v) ? v.join(', ') : v;
        resolve({ status: res.statusCode ?? 0, headers: flat, stream: res });
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}
