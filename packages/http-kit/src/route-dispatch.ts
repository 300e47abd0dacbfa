import type { ErrorRequestHandler, NextFunction, Request, RequestHandler, Response } from 'express';
import { mountedRoutes, type MountedRoute } from './route';

type Handler = RequestHandler | ErrorRequestHandler;

/**
 * The hot routes without express's walk (issue 40). `handlers` is the app's request path in order: middleware every
 * request passes (request id, observers, limits...) and the routers mountRoutes made. A request whose method and
 * path are exactly a declared route's with no path parameter runs, from one map lookup, the middleware before that
 * route's router and then the route's own handlers (key check, parsers, handler, errors in its shape): what express
 * would run, without matching every layer and every route before it. Mount it first; anything else (parameters, a
 * trailing slash, another letter case, HEAD) goes on to `handlers`, mounted after it as before. A route stays with
 * express when an earlier route could match its path too (express would run that one) or when it may pass requests
 * on (`first` handlers). An error before the route's own handlers goes on to the app's error handler, as in express
 * (a route never matches with an error pending).
 */
export function fastRoutes(handlers: readonly RequestHandler[]): RequestHandler {
  const routes = new Map<string, { before: readonly Handler[]; route: MountedRoute }>();
  const earlier: MountedRoute[] = [];
  const before: Handler[] = [];
  for (const handler of handlers) {
    const mounted = mountedRoutes(handler);
    if (!mounted.length) before.push(handler);
    for (const route of mounted) {
      const key = `${route.method} ${route.path}`;
      const exact = !route.path.includes('{') && !route.passes && !routes.has(key);
      if (exact && !earlier.some((e) => e.method === route.method && shadows(e, route.path)))
        routes.set(key, { before: [...before], route });
      earlier.push(route);
    }
  }
  return (req, res, next) => {
    const found = routes.get(`${req.method} ${req.path}`);
    if (!found) return next();
    run(found.before, req, res, (err?: unknown) => {
      if (err) return next(err);
      req.params = {};
      // what express sets on a matched route, read by tracing for the span's name
      (req as { route?: unknown }).route = { path: found.route.expressPath };
      run(found.route.chain, req, res, next);
    });
  };
}

/** Whether an earlier route's pattern (parameters match one segment, any letter case) matches `path`. */
function shadows(earlier: MountedRoute, path: string): boolean {
  if (earlier.path.toLowerCase() === path.toLowerCase()) return true;
  if (!earlier.path.includes('{')) return false;
  const parts = earlier.path.split(/(\{[^}]+\})/).map((p, i) => (i % 2 ? '[^/]+' : p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')));
  return new RegExp(`^${parts.join('')}/?$`, 'i').test(path);
}

/**
 * Runs a route's handlers as express's router does: `next()` goes to the next request handler, `next(err)` to the
 * next error handler, a rejected promise is `next(err)`; past the last one, `done` (express's next layer).
 */
function run(chain: readonly Handler[], req: Request, res: Response, done: NextFunction): void {
  let i = 0;
  const next = (err?: unknown): void => {
    if (err === 'route' || err === 'router') return done();
    while (i < chain.length) {
      const h = chain[i++]!;
      if ((h.length === 4) !== (err !== undefined && err !== null)) continue;
      try {
        const out: unknown = err ? (h as ErrorRequestHandler)(err, req, res, next) : (h as RequestHandler)(req, res, next);
        if (out instanceof Promise) out.then(undefined, (e: unknown) => next(e ?? new Error('Rejected promise')));
      } catch (e) {
        next(e);
      }
      return;
    }
    done(err);
  };
  next();
}
