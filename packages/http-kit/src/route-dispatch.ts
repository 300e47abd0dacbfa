import type { ErrorRequestHandler, Express, NextFunction, Request, RequestHandler, Response } from 'express';
import { mountedRoutes, type MountedRoute } from './route';

type Handler = RequestHandler | ErrorRequestHandler;

interface Found {
  before: readonly Handler[];
  route: MountedRoute;
  params: Record<string, string>;
}

interface Declared {
  route: MountedRoute;
  before: readonly Handler[];
  /** what express matches: any letter case, an optional trailing slash */
  loose: RegExp;
  /** the path as declared, parameters captured (parameter routes only) */
  exact?: { pattern: RegExp; names: string[] };
}

/** Decisions kept for paths with parameters (a model id in the path): bounded, a path past it is decided each time. */
const DECIDED_MAX = 1000;

/**
 * The hot routes without express's walk (issue 40). `handlers` is the app's request path in order: middleware every
 * request passes (request id, observers, limits...) and the routers mountRoutes made. A request whose method and
 * path are a declared route's runs, from one map lookup, the middleware before that route's router and then the
 * route's own handlers (key check, parsers, handler, errors in its shape): what express would run, without matching
 * every layer and every route before it. A path with parameters (Gemini's `models/{model}:generateContent`) is
 * decided once, by the routes in express's order, and the decision kept. serveFastFirst runs it ahead of the app's
 * router; anything else (a trailing slash, another letter case, HEAD, a parameter that does not decode) goes on to
 * express's walk of the same `handlers`. A route stays with express when an earlier route matches the path too (express would run that one) or when
 * it may pass requests on (`first` handlers). An error before the route's own handlers goes on to the app's error
 * handler, as in express (a route never matches with an error pending).
 */
export function fastRoutes(handlers: readonly RequestHandler[]): RequestHandler {
  const routes = new Map<string, Found>();
  const declared: Declared[] = [];
  const before: Handler[] = [];
  for (const handler of handlers) {
    const mounted = mountedRoutes(handler);
    if (!mounted.length) before.push(handler);
    for (const route of mounted) {
      const key = `${route.method} ${route.path}`;
      const exact = !route.path.includes('{') && !route.passes && !routes.has(key);
      if (exact && !declared.some((d) => d.route.method === route.method && d.loose.test(route.path)))
        routes.set(key, { before: [...before], route, params: {} });
      declared.push({ route, before: [...before], ...patternsOf(route.path) });
    }
  }
  const decided = new Map<string, Found | null>();
  const decide = (method: string, path: string): Found | null => {
    const first = declared.find((d) => d.route.method === method && d.loose.test(path));
    const match = first?.exact && !first.route.passes ? first.exact.pattern.exec(path) : null;
    if (!first?.exact || !match) return null;
    try {
      const params = Object.fromEntries(first.exact.names.map((name, i) => [name, decodeURIComponent(match[i + 1]!)]));
      return { before: first.before, route: first.route, params };
    } catch {
      return null; // a parameter that does not decode: express answers it
    }
  };
  return (req, res, next) => {
    const key = `${req.method} ${req.path}`;
    let found = routes.get(key) ?? decided.get(key);
    if (found === undefined) {
      found = decide(req.method, req.path);
      if (decided.size < DECIDED_MAX) decided.set(key, found);
    }
    if (!found) return next();
    const { route, params } = found;
    run(found.before, req, res, (err?: unknown) => {
      if (err) return next(err);
      req.params = { ...params };
      // what express sets on a matched route, read by tracing for the span's name
      (req as { route?: unknown }).route = { path: route.expressPath };
      run(route.chain, req, res, next);
    });
  };
}

type Handle = (req: Request, res: Response, callback?: NextFunction) => void;

/**
 * Puts `fast` (fastRoutes over the app's handlers) ahead of the app's own router: a request of a hot route does not
 * walk express's router at all. Each request the app serves goes through `app.handle` (what the app function calls);
 * this one first sets up the request and response as express's handle and router would (their prototypes, the
 * back-references, `locals`, `originalUrl`, `baseUrl`), then runs `fast`. A miss goes on to express's own handle;
 * an error raised before the route's own handlers goes to `onError` (the app's last handler: express would skip
 * every other layer to reach it). A request handed down from a parent app (a callback) keeps express's way.
 */
export function serveFastFirst(app: Express, fast: RequestHandler, onError: ErrorRequestHandler): void {
  const viaExpress = (app as unknown as { handle: Handle }).handle.bind(app);
  const { request, response } = app;
  (app as unknown as { handle: Handle }).handle = (req, res, callback) => {
    if (callback) return viaExpress(req, res, callback);
    req.res = res;
    res.req = req;
    Object.setPrototypeOf(req, request);
    Object.setPrototypeOf(res, response);
    res.locals ??= Object.create(null) as Response['locals'];
    req.originalUrl ||= req.url;
    req.baseUrl = '';
    const next: NextFunction = (err?: unknown) => {
      if (err && err !== 'route' && err !== 'router') return void onError(err, req, res, () => undefined);
      viaExpress(req, res);
    };
    req.next = next;
    void fast(req, res, next);
  };
}

/** A declared path as express matches it (parameters one segment each, any letter case, an optional trailing slash). */
function patternsOf(path: string): Pick<Declared, 'loose' | 'exact'> {
  const parts = path.split(/(\{[^}]+\})/);
  const source = (param: string) => parts.map((p, i) => (i % 2 ? param : p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))).join('');
  const loose = new RegExp(`^${source('[^/]+')}/?$`, 'i');
  if (parts.length === 1) return { loose };
  const names = parts.filter((_, i) => i % 2).map((p) => p.slice(1, -1));
  return { loose, exact: { pattern: new RegExp(`^${source('([^/]+)')}$`), names } };
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
