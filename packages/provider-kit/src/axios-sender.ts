import axios, { type AxiosResponse } from 'axios';
import type { Readable } from 'node:stream';
import type { KeepAliveAgents } from './keep-alive-agents';
import type { SendRequest, SentResponse } from './node-http-sender';

/**
 * The axios path of the upstream client: multipart forms (axios writes the body and its boundary), downloads, and
 * every call of a provider configured with `"transport": "axios"`. No redirects (the client follows a download's
 * hops itself), bodies as streams, every status handed back.
 */
export function createAxiosSender(agents: KeepAliveAgents) {
  const http = axios.create({
    adapter: 'http',
    maxRedirects: 0,
    responseType: 'stream',
    validateStatus: () => true,
    decompress: true,
    proxy: false,
    maxContentLength: -1,
    maxBodyLength: -1,
    httpAgent: agents.httpAgent,
    httpsAgent: agents.httpsAgent,
  });
  return async (r: SendRequest): Promise<SentResponse> => {
    const res = await http.request<Readable>({
      method: r.method,
      url: r.url,
      data: r.body,
      headers: r.headers,
      signal: r.signal,
      ...(r.lookup ? { lookup: r.lookup } : {}),
    });
    return { status: res.status, headers: flatHeaders(res.headers), stream: res.data };
  };
}

function flatHeaders(h: AxiosResponse['headers']): Record<string, string | undefined> {
  const out: Record<string, string | undefined> = {};
  for (const [k, v] of Object.entries(h ?? {})) {
    if (v === undefined || v === null) continue;
    out[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : String(v);
  }
  return out;
}
