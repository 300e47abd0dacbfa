import type { Request, Router } from 'express';
import type { Authenticator } from './auth';
import type { ErrorRenderer, ErrorShape } from './error-shape';
import { mountRoutes, type Route } from './route';

/**
 * Paths whose failures no router answered (an unknown route, a malformed URL, a refused stream) still answer in
 * this shape. The longest matching claim wins, so `/v1beta/files/` (operations) beats `/v1beta/` (Google).
 */
export interface PathClaim {
  /** a path prefix, or a pattern for paths a prefix cannot describe (a `:verb` inside a segment) */
  path: string | RegExp;
  /** an ErrorShape name */
  shape: string;
  /** the claim holds only when the request carries this header (`anthropic-version` on the shared model list) */
  whenHeader?: string;
}

/**
 * What one wire package tells the server about itself, in one export. The server derives from the list of these:
 * the routes it mounts and the OpenAPI document (both from `routes`), the error shape of unrouted paths, and the fuzz
 * suite's endpoints. `Deps` names the services the handlers need; the composition root must provide all of them (a
 * compile error otherwise).
 */
export interface WireFormat<Deps = never> {
  name: string;
  /** mounted in this order (it matters only where paths overlap) */
  routes: readonly Route<Deps>[];
  /** the shapes this format answers in and can hand over (shared dialects included); others name them */
  errorShapes: readonly ErrorShape[];
  pathClaims?: readonly PathClaim[];
}

/** Every error shape the formats declare, by name (a shared dialect declared twice is the same object). */
export function errorShapesOf(formats: ReadonlyArray<Pick<WireFormat<never>, 'errorShapes'>>): ReadonlyMap<string, ErrorShape> {
  const shapes = new Map<string, ErrorShape>();
  for (const s of formats.flatMap((f) => f.errorShapes)) {
    if (shapes.get(s.name) && shapes.get(s.name) !== s) throw new Error(`Two error shapes are named ${s.name}`);
    shapes.set(s.name, s);
  }
  return shapes;
}

/** The renderer for failures on a path no router answered: the longest claim that matches, else `fallback`. */
export function rendererForPath(
  formats: ReadonlyArray<Pick<WireFormat<never>, 'errorShapes' | 'pathClaims'>>,
  fallback: ErrorShape,
): (path: string, req?: Pick<Request, 'header'>) => ErrorRenderer {
  const shapes = errorShapesOf(formats);
  const claims = formats.flatMap((f) => f.pathClaims ?? []);
  for (const c of claims) if (!shapes.has(c.shape)) throw new Error(`A path claim names the unknown error shape ${c.shape}`);
  return (path, req) => {
    let best: { length: number; shape: string } | undefined;
    for (const c of claims) {
      if (c.whenHeader && req?.header(c.whenHeader) === undefined) continue;
      const length = typeof c.path === 'string' ? (path.startsWith(c.path) ? c.path.length : -1) : (c.path.exec(path)?.[0].length ?? -1);
      if (length >= 0 && length > (best?.length ?? -1)) best = { length, shape: c.shape };
    }
    return best ? shapes.get(best.shape)!.render : fallback.render;
  };
}

/** One format's routes on a router of their own, its own shapes answering (a test's app, a single-format app). */
export function formatRouter<Deps>(format: WireFormat<Deps>, deps: Deps, authenticate: Authenticator): Router {
  const shapes = errorShapesOf([format]);
  return mountRoutes(format.routes, deps, {
    authenticate,
    errorShape: (name) => {
      const shape = shapes.get(name);
      if (!shape) throw new Error(`The format ${format.name} declares no error shape ${name}`);
      return shape;
    },
  });
}
