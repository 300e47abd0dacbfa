import type { RequestHandler } from 'express';
import { forbiddenRole, roleOf, type Principal } from '@gateway/core';
import { extractKey, sendError, sessionIdentityOf, type ErrorRenderer, type RouteDoc } from '@gateway/http-kit';
import { errorShapeNamed } from './wire-formats';

const escape = (s: string) => s.replace(/[.*+?^$()|[\]\\]/g, '\\$&');

/** `{param}` is one path segment; the rest (a `:verb` included) is literal. */
const pathPattern = (path: string) =>
  new RegExp(
    `^${path
      .split(/\{[^}]+\}/)
      .map(escape)
      .join('[^/]+')}/?$`,
  );

/**
 * The role rule, from the route docs alone: a request to a route whose doc says `role: 'admin'` made with a member
 * key gets 403 `forbidden_role` in the route's own error shape. Anything else (no key, a bad key, an unknown route)
 * goes on to the route, which answers as it always does. `identify` resolves a key without counting it against a
 * rate limit (the route counts it); a request without a key acts as its sign-on session, if any (http-kit auth.ts).
 */
export function roleGuard(
  docs: readonly RouteDoc[],
  identify: (rawKey: string | undefined) => Promise<Principal>,
  unroutedRenderer: (path: string, req: Parameters<RequestHandler>[0]) => ErrorRenderer,
): RequestHandler {
  const guarded = docs.flatMap((d) =>
    d.auth.kind === 'api-key' && d.auth.role === 'admin'
      ? [{ method: d.method, pattern: pathPattern(d.path), headers: d.auth.alternativeHeaders ?? [], errors: d.errors }]
      : [],
  );
  return (req, res, next) => {
    const method = req.method.toLowerCase() === 'head' ? 'get' : req.method.toLowerCase();
    const route = guarded.find((r) => r.method === method && r.pattern.test(req.path));
    if (!route) return next();
    const raw = extractKey(req, route.headers);
    const session = sessionIdentityOf(res);
    (raw === undefined && session ? Promise.resolve(session.principal) : identify(raw)).then(
      (p) => {
        if (roleOf(p) === 'admin') return next();
        const render = typeof route.errors === 'string' ? errorShapeNamed(route.errors).render : unroutedRenderer(req.path, req);
        sendError(res, forbiddenRole(`${req.method} ${req.path.slice(0, 200)}`), render);
      },
      () => next(),
    );
  };
}
