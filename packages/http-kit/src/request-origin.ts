import type { Request } from 'express';

/** A host (name, IPv4 or bracketed IPv6) with an optional port: anything else in a header is not put into a link. */
const HOST = /^(?:[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/;

/** The first value of a header a proxy chain may have extended (`a, b`). */
function first(req: Request, name: string): string | undefined {
  return req.header(name)?.split(',')[0]?.trim() || undefined;
}

/**
 * The origin a request came in on, for links handed back to its caller: `Host` over the connection's own scheme, or,
 * behind a trusted proxy (TRUST_PROXY), `X-Forwarded-Host` / `X-Forwarded-Proto` first. Undefined when the host is
 * missing or not a plain host: the caller then uses its configured default. One rule for every link in an answer.
 */
export function requestOrigin(req: Request, trustProxy: boolean): string | undefined {
  const forwardedProto = trustProxy ? first(req, 'x-forwarded-proto')?.toLowerCase() : undefined;
  const proto = forwardedProto === 'http' || forwardedProto === 'https' ? forwardedProto : 'encrypted' in req.socket ? 'https' : 'http';
  const host = (trustProxy ? first(req, 'x-forwarded-host') : undefined) ?? req.header('host');
  return host && HOST.test(host) ? `${proto}://${host}` : undefined;
}
