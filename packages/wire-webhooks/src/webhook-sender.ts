import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import {
  checkWebhookUrl,
  hostOf,
  isAllowedHost,
  isForbiddenAddress,
  type WebhookAnswer,
  type WebhookSender,
  type WebhookUrlRule,
} from '@gateway/core';

interface Resolved {
  address: string;
  family: 4 | 6;
}

export type HostLookup = (hostname: string) => Promise<Resolved[]>;

const systemLookup: HostLookup = async (host) =>
  (await dns.promises.lookup(host, { all: true, verbatim: true })).map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));

const EXCERPT_BYTES = 512;

/**
 * POSTs webhooks under the server-side fetch rules (core network-address.ts, as http-kit's safeFetch): the URL rule
 * again (an endpoint stored before the operator changed WEBHOOK_ALLOWED_HOSTS), every resolved address public unless
 * the host is allowed, the connection pinned to the checked address (no DNS rebinding), redirects never followed
 * (a 3xx is an answer like any non-2xx), and a time limit on the whole exchange.
 */
export function httpWebhookSender(rule: WebhookUrlRule, lookup: HostLookup = systemLookup): WebhookSender {
  return {
    async post(rawUrl, req): Promise<WebhookAnswer> {
      let url: URL;
      try {
        url = checkWebhookUrl(rawUrl, rule);
      } catch (e) {
        return { error: (e as Error).message };
      }
      const host = hostOf(url);
      let addresses: Resolved[];
      // one message whether the name does not resolve or resolves to a refused address: a delivery log must not tell
      // a tenant which internal names exist
      const unreachable = { error: `the host ${host} does not resolve to a public address; webhooks go to public addresses only` };
      try {
        addresses = net.isIP(host) ? [{ address: host, family: net.isIP(host) === 6 ? 6 : 4 }] : await lookup(host);
      } catch {
        return unreachable;
      }
      const [first] = addresses;
      if (!first) return unreachable;
      if (!isAllowedHost(rule, url) && addresses.some((a) => isForbiddenAddress(a.address))) return unreachable;
      return send(url, first, req);
    },
  };
}

function send(
  url: URL,
  pinned: Resolved,
  req: { headers: Record<string, string>; body: string; timeoutMs: number; answerBytes?: number },
): Promise<WebhookAnswer> {
  const keep = req.answerBytes ?? EXCERPT_BYTES;
  return new Promise((resolve) => {
    let settled = false;
    const done = (a: WebhookAnswer) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      request.destroy();
      resolve(a);
    };
    const client = url.protocol === 'https:' ? https : http;
    const request = client.request(url, {
      method: 'POST',
      agent: false,
      headers: { ...req.headers, 'content-length': String(Buffer.byteLength(req.body)), 'user-agent': 'generation-gateway-webhooks' },
      lookup: (_h: string, opts: { all?: boolean }, cb: (...args: unknown[]) => void) =>
        opts?.all ? cb(null, [pinned]) : cb(null, pinned.address, pinned.family),
    } as https.RequestOptions);
    const timer = setTimeout(() => done({ error: `no answer within ${req.timeoutMs} ms` }), req.timeoutMs);
    request.on('error', (e: NodeJS.ErrnoException) => done({ error: `the POST failed (${e.code ?? e.message})` }));
    request.on('response', (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (c: Buffer) => {
        if (size < keep) chunks.push(c);
        size += c.length;
      });
      res.on('error', () => done({ status: res.statusCode ?? 0, excerpt: '' }));
      res.on('end', () => done({ status: res.statusCode ?? 0, excerpt: Buffer.concat(chunks).subarray(0, keep).toString('utf8') }));
    });
    request.end(req.body);
  });
}
