import http from 'node:http';
import https from 'node:https';
import type { LookupAddress } from 'node:dns';
import type { Readable } from 'node:stream';
import type { KeepAliveAgents } from './keep-alive-agents';

export type HopLookup = (hostname: string, options: object) => Promise<{ address: string; family: 4 | 6 }>;

/** One request as the upstream client hands it to the sender: the URL with its query, headers final. */
export interface SendRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  /** a JSON text, or a multipart form (the global FormData; files as Blob parts) */
  body?: string | FormData;
  signal: AbortSignal;
  /** where a download hop may connect (upstream-client.ts) */
  lookup?: HopLookup;
}

export interface SentResponse {
  status: number;
  headers: Record<string, string | undefined>;
  stream: Readable;
}

type LookupCallback = (err: Error | null, address: string | LookupAddress[], family?: number) => void;

/** A HopLookup in the callback form node's sockets call; `all` is asked when node races address families. */
function callbackLookup(lookup: HopLookup) {
  return (hostname: string, options: { all?: boolean }, callback: LookupCallback) => {
    lookup(hostname, options).then(
      (a) => (options.all ? callback(null, [a]) : callback(null, a.address, a.family)),
      (e: Error) => callback(e, ''),
    );
  };
}

/**
 * A form encoded as fetch would send it: the body with its length, and the content type carrying the boundary.
 * Its parts are Blobs already in memory, so encoding it whole costs one copy and sends an exact content-length.
 */
async function encodeForm(form: FormData): Promise<{ bytes: Buffer; contentType: string }> {
  const encoded = new Response(form);
  return { bytes: Buffer.from(await encoded.arrayBuffer()), contentType: encoded.headers.get('content-type')! };
}

/**
 * The upstream client's sender: node's own http client over the provider's keep-alive agents, measured faster than
 * axios (docs/adr/0002-node-http-transport.md). It follows no redirects (the client checks each download hop), asks
 * for no compression (so nothing needs decompressing) and hands back the body unread, whatever the status.
 */
export async function nodeSend(agents: KeepAliveAgents, r: SendRequest): Promise<SentResponse> {
  const headers: Record<string, string> = { ...r.headers };
  let body: string | Buffer | undefined;
  if (typeof r.body === 'string') body = r.body;
  else if (r.body !== undefined) {
    const form = await encodeForm(r.body);
    body = form.bytes;
    headers['content-type'] = form.contentType;
  }
  if (body !== undefined) headers['content-length'] = String(Buffer.byteLength(body));
  return new Promise((resolve, reject) => {
    const url = new URL(r.url);
    const secure = url.protocol === 'https:';
    const req = (secure ? https : http).request(
      url,
      {
        method: r.method,
        headers,
        agent: secure ? agents.httpsAgent : agents.httpAgent,
        signal: r.signal,
        ...(r.lookup ? { lookup: callbackLookup(r.lookup) as never } : {}),
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
