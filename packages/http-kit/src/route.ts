import { Router, type ErrorRequestHandler, type Request, type RequestHandler, type Response } from 'express';
import type { AuditActor, Principal } from '@gateway/core';
import { actorOf, requireKey, type Authenticator } from './auth';
import { sendError } from './error-middleware';
import type { ErrorShape } from './error-shape';
import { requestSignal } from './request-abort';
import type { BodyDoc, RequestBody } from './request-body';
import type { RequestQuery } from './request-query';
import type { RouteAuth, RouteDoc } from './route-doc';

/** What every handler is told about its request, instead of reading `res.locals`. */
export interface RouteContext<Deps> {
  deps: Deps;
  requestId: string;
  /** fires when the caller leaves before the answer is complete: every upstream call of the request takes it */
  signal: AbortSignal;
}

/** An API-key route's handler also knows who called (its role already checked) and whom a change is recorded under. */
export interface KeyedContext<Deps> extends RouteContext<Deps> {
  principal: Principal;
  /** the key, or the person of a dashboard sign-on session acting without one */
  actor: AuditActor;
}

/** An admin-key route's handler knows who made the change (the admin key, or the CLI), for its audit record. */
export interface AdminContext<Deps> extends RouteContext<Deps> {
  actor: AuditActor;
}

type ContextFor<A extends RouteAuth, Deps> = A extends { kind: 'api-key' }
  ? KeyedContext<Deps>
  : A extends { kind: 'admin-key'; optional?: false }
    ? AdminContext<Deps>
    : RouteContext<Deps>;

/**
 * One route, declared once: its OpenAPI description (method, path, auth and role, body, response, error shape) and
 * its handler. mountRoutes mounts it from these very fields; the OpenAPI document is built from the same object, and
 * a declared query and body are checked before the handler, which receives them typed as `ctx.query` and `ctx.body`.
 */
export interface Route<Deps = never, A extends RouteAuth = RouteAuth, B = unknown, Q = unknown> extends RouteDoc {
  auth: A;
  body?: RequestBody<B> | BodyDoc;
  /** the query parameters checked (list the same ones in `params` for the description) */
  query?: RequestQuery<Q>;
  /** run before the key check: headers every answer carries, or `next('route')` for a request another route owns */
  first?: readonly RequestHandler[];
  /** run after the key check (a refused caller's body is never read): header checks, body parsers */
  parse?: readonly RequestHandler[];
  /** when `errors` names several shapes: the one this request is answered in */
  errorShapeFor?(req: Request): string;
  handle(ctx: ContextFor<A, Deps> & { body: B; query: Q }, req: Request, res: Response): unknown;
}

/** A mounted route as the fast dispatcher (route-dispatch.ts) runs it: the same handlers, in the same order. */
export interface MountedRoute {
  /** `GET`, `POST`... */
  method: string;
  /** as declared (OpenAPI syntax) */
  path: string;
  expressPath: string;
  chain: ReadonlyArray<RequestHandler | ErrorRequestHandler>;
  /** it has `first` handlers, which may pass the request on to another route (`next('route')`) */
  passes: boolean;
}
const MOUNTED = new WeakMap<RequestHandler, readonly MountedRoute[]>();

/** The routes mountRoutes put on `router`, in order (none for a router it did not make). */
export const mountedRoutes = (router: RequestHandler): readonly MountedRoute[] => MOUNTED.get(router) ?? [];

/** A package's route declarations share their services: `const route = routeOf<ChatDeps>()`, then `route({...})`. */
export function routeOf<Deps>() {
  return <A extends RouteAuth, B = unknown, Q = unknown>(r: Route<Deps, A, B, Q>): Route<Deps> => r as unknown as Route<Deps>;
}

const checkOf = (body: Route<unknown>['body']) => (body && 'check' in body ? body.check : undefined);

/** What mounting needs besides the routes' own services. */
export interface RouteGates {
  /** resolves an API key (api-key routes) */
  authenticate?: Authenticator;
  /** checks the admin key (admin-key routes); throws the refusal */
  admin?: (req: Request, res: Response) => AuditActor;
  /** an error shape by the name a route's `errors` gives */
  errorShape(name: string): ErrorShape;
}

const SPECIAL = /[:()[\]?+!*{}\\]/g;

/** OpenAPI's `/v1/videos/{id}` and `/models/{model}:generateContent` in express's syntax (a literal `:` escaped). */
export function expressPath(openApiPath: string): string {
  return openApiPath
    .split(/(\{[^}]+\})/)
    .map((part, i) => (i % 2 === 1 ? `:${part.slice(1, -1)}` : part.replace(SPECIAL, '\\$&')))
    .join('');
}

function gate(auth: RouteAuth, gates: RouteGates): RequestHandler[] {
  if (auth.kind === 'api-key') {
    if (!gates.authenticate) throw new Error('An API-key route needs an authenticator to be mounted');
    return [requireKey(gates.authenticate, auth.alternativeHeaders, auth.role, auth.session === true)];
  }
  if (auth.kind === 'admin-key' && !auth.optional) {
    const check = gates.admin;
    if (!check) throw new Error('An admin-key route needs the admin gate to be mounted');
    return [
      (req, res, next) => {
        res.locals.auditActor = check(req, res);
        next();
      },
    ];
  }
  return [];
}

type Checked = { body: unknown; query: unknown };

function contextOf<Deps>(deps: Deps, res: Response, checked: Checked): KeyedContext<Deps> & AdminContext<Deps> & Checked {
  // an admin route's author comes from the admin gate; an API-key route's from its key or sign-on session
  const actor = res.locals.auditActor ?? (res.locals.principal ? actorOf(res) : undefined);
  const context = {
    deps,
    requestId: res.locals.requestId,
    signal: requestSignal(res),
    principal: res.locals.principal!,
    ...checked,
    ...(actor ? { actor } : {}),
  };
  return context as KeyedContext<Deps> & AdminContext<Deps> & Checked;
}

/**
 * Mounts each declared route on one router: `first`, the key check (role included), `parse`, the declared query's and
 * body's checks, the handler, errors in the route's shape.
 */
export function mountRoutes<Deps>(routes: readonly Route<Deps>[], deps: Deps, gates: RouteGates): Router {
  const router = Router();
  const mounted: MountedRoute[] = [];
  MOUNTED.set(router, mounted);
  for (const r of routes) {
    const [main = 'openai', ...others] = [r.errors ?? 'openai'].flat();
    for (const name of [main, ...others]) gates.errorShape(name); // an unknown shape fails at start-up, not on the first error
    const renderFor = (req: Request) => gates.errorShape(r.errorShapeFor?.(req) ?? main).render;
    const errors: ErrorRequestHandler = (e, req, res, _next) => sendError(res, e, renderFor(req));
    const check = checkOf(r.body);
    const handle: RequestHandler = async (req, res) => {
      const query: unknown = r.query ? r.query.check(req.query) : undefined;
      const body: unknown = check ? await check(req.body, req, { deps, principal: res.locals.principal }) : undefined;
      await r.handle(contextOf(deps, res, { body, query }), req, res);
    };
    const chain = [...(r.first ?? []), ...gate(r.auth, gates), ...(r.parse ?? []), handle, errors];
    router[r.method](expressPath(r.path), ...chain);
    mounted.push({ method: r.method.toUpperCase(), path: r.path, expressPath: expressPath(r.path), chain, passes: !!r.first?.length });
  }
  return router;
}
