/**
 * Fetching a URL a caller handed us (an image to start a video or edit an image from) without
 * letting the caller aim the gateway at its own network: https only, every resolved address
 * checked against private/loopback/link-local/metadata ranges, the connection pinned to the
 * checked address (no DNS rebinding between check and connect), no redirects, and a size
 * and time limit. `data:` URLs are decoded in place.
 */
import dns from 'node:dns';
import https from 'node:https';
import net from 'node:net';
import type { IncomingMessage } from 'node:http';
import { decodeDataUrl, invalid, isForbiddenAddress } from '@gateway/core';

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

export interface SafeFetchOptions {
  /** the request field the URL came from, named in errors */
  param?: string;
  maxBytes?: number;
  timeoutMs?: number;
  /** DNS resolution; injectable so tests can simulate hostile records */
  lookup?: (hostname: string) => Promise<ResolvedAddress[]>;
}

export interface FetchedBytes {
  data: Uint8Array;
  /** the declared media type (Content-Type header or the data URL's type), if any */
  contentType?: string;
}

export const SAFE_FETCH_DEFAULTS = Object.freeze({ maxBytes: 20 * 1024 * 1024, timeoutMs: 10_000 });

/** The address rule lives in core (network-address.ts), shared with upstream result downloads. */
export { isForbiddenAddress };

async function systemLookup(hostname: string): Promise<ResolvedAddress[]> {
  const found = await dns.promises.lookup(hostname, { all: true, verbatim: true });
  return found.map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));
}

/** GET an https URL under the rules above; every failure is a 400 naming `param`. */
export async function safeFetch(rawUrl: string, options: SafeFetchOptions = {}): Promise<FetchedBytes> {
  const param = options.param;
  const maxBytes = options.maxBytes ?? SAFE_FETCH_DEFAULTS.maxBytes;
  const timeoutMs = options.timeoutMs ?? SAFE_FETCH_DEFAULTS.timeoutMs;
  let url: URL;
  try {
    url = new URL(rawUrl);
  } catch {
    throw invalid('invalid_url', `${param ?? 'The URL'} is not a valid URL.`, param);
  }
  if (url.protocol !== 'https:') {
    throw invalid(
      'unsupported_url_scheme',
      `${param ?? 'The URL'} must be an https:// URL; got a ${url.protocol.replace(':', '')} URL.`,
      param,
    );
  }
  if (url.username || url.password) throw invalid('invalid_url', `${param ?? 'The URL'} must not carry credentials.`, param);

  const host = url.hostname.replace(/^\[|\]$/g, '');
  let addresses: ResolvedAddress[];
  if (net.isIP(host)) addresses = [{ address: host, family: net.isIP(host) === 6 ? 6 : 4 }];
  else {
    try {
      addresses = await (options.lookup ?? systemLookup)(host);
    } catch {
      throw invalid('url_fetch_failed', `${param ?? 'The URL'}: the host ${JSON.stringify(host)} could not be resolved.`, param);
    }
  }
  // Refuse when any record is private: the attacker controls the zone, not which record we would pick.
  const [first] = addresses;
  if (!first || addresses.some((a) => isForbiddenAddress(a.address))) {
    throw invalid(
      'forbidden_url_address',
      `${param ?? 'The URL'} points to a private, loopback, link-local or otherwise non-public address; the gateway only fetches public https URLs.`,
      param,
    );
  }
  return download(url, first, { param, maxBytes, timeoutMs });
}

function download(url: URL, pinned: ResolvedAddress, o: { param?: string; maxBytes: number; timeoutMs: number }): Promise<FetchedBytes> {
  const name = o.param ?? 'The URL';
  return new Promise((resolve, reject) => {
    let settled = false;
    const fail = (code: string, message: string) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      req.destroy();
      reject(invalid(code, `${name}: ${message}`, o.param));
    };
    const req = https.request(url, {
      method: 'GET',
      agent: false,
      headers: { accept: 'image/*', 'user-agent': 'generation-gateway-fetch' },
      // Connect to the address we checked, whatever DNS says now; TLS still verifies the hostname.
      lookup: (_h: string, opts: { all?: boolean }, cb: (...args: unknown[]) => void) =>
        opts?.all ? cb(null, [pinned]) : cb(null, pinned.address, pinned.family),
    } as https.RequestOptions);
    const timer = setTimeout(() => fail('url_fetch_timeout', `no complete answer within ${o.timeoutMs} ms.`), o.timeoutMs);
    req.on('error', (e) => fail('url_fetch_failed', `the download failed (${(e as NodeJS.ErrnoException).code ?? e.message}).`));
    req.on('response', (res: IncomingMessage) => {
      const status = res.statusCode ?? 0;
      if (status >= 300 && status < 400)
        return fail(
          'url_redirect_refused',
          `the server answered with a redirect (${status}); redirects are not followed, give the final URL.`,
        );
      if (status !== 200) return fail('url_fetch_failed', `the server answered ${status}.`);
      const declared = Number(res.headers['content-length']);
      if (Number.isFinite(declared) && declared > o.maxBytes) return fail('url_too_large', `the file is larger than ${o.maxBytes} bytes.`);
      const chunks: Buffer[] = [];
      let total = 0;
      res.on('data', (c: Buffer) => {
        total += c.length;
        if (total > o.maxBytes) return fail('url_too_large', `the file is larger than ${o.maxBytes} bytes.`);
        chunks.push(c);
      });
      res.on('error', (e) => fail('url_fetch_failed', `the download failed (${e.message}).`));
      res.on('end', () => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        resolve({ data: Buffer.concat(chunks), contentType: res.headers['content-type']?.split(';')[0]?.trim().toLowerCase() });
      });
    });
    req.end();
  });
}

/** `data:<type>;base64,<data>` decoded strictly, or an https URL fetched with safeFetch. */
export async function loadUrlBytes(rawUrl: string, options: SafeFetchOptions = {}): Promise<FetchedBytes> {
  if (/^data:/i.test(rawUrl)) {
    const decoded = decodeDataUrl(rawUrl);
    if (!decoded) {
      throw invalid(
        'invalid_data_url',
        `${options.param ?? 'The data URL'} must be a base64 data URL (data:<type>;base64,<data>) with valid base64.`,
        options.param,
      );
    }
    const { data, mediaType } = decoded;
    if (data.length > (options.maxBytes ?? SAFE_FETCH_DEFAULTS.maxBytes)) {
      throw invalid(
        'url_too_large',
        `${options.param ?? 'The data URL'}: the file is larger than ${options.maxBytes ?? SAFE_FETCH_DEFAULTS.maxBytes} bytes.`,
        options.param,
      );
    }
    return { data, contentType: mediaType?.toLowerCase() };
  }
  return safeFetch(rawUrl, options);
}
