import express, { type ErrorRequestHandler, type Express, type RequestHandler } from 'express';
import { GatewayError } from '@gateway/core';
import { fastRoutes, mountRoutes, requestId, sendError, serveFastFirst } from '@gateway/http-kit';
import { errorShapeNamed, rendererForUnroutedPath } from './wire-formats';
import { probeRoutes, type Readiness } from '@gateway/observability';

export interface HttpAppOptions {
  /** wire routers, mounted in order at the root (gateway.ts puts the request observer first: counts and log lines) */
  routers: RequestHandler[];
  ready: () => Promise<Readiness>;
  /** TRUST_PROXY: the proxy in front appends the client's address to X-Forwarded-For, and `req.ip` reads it there */
  trustProxy?: boolean;
}

/** NUL and malformed escapes in the URL are refused before any router (PostgreSQL text cannot hold NUL). */
const rejectHostileUrl: RequestHandler = (req, res, next) => {
  let decoded: string;
  try {
    decoded = decodeURIComponent(req.originalUrl);
  } catch {
    return sendError(
      res,
      new GatewayError('invalid_request', 'The URL has a malformed percent-escape.', { code: 'malformed_url' }),
      rendererForUnroutedPath(req.path, req),
    );
  }
  if (decoded.includes('\u0000'))
    return sendError(
      res,
      new GatewayError('invalid_request', 'The URL contains a NUL character.', { code: 'nul_character' }),
      rendererForUnroutedPath(req.path, req),
    );
  next();
};

export function createHttpApp(opts: HttpAppOptions): Express {
  const app = express();
  app.disable('x-powered-by');
  app.disable('etag');
  app.set('query parser', 'extended');
  // one hop: the last X-Forwarded-For entry is what our proxy saw; entries before it are the client's own say
  app.set('trust proxy', opts.trustProxy ? 1 : false);
  // the probes come before every router: neither counted nor logged
  const handlers = [
    requestId,
    rejectHostileUrl,
    mountRoutes(probeRoutes, { ready: opts.ready }, { errorShape: errorShapeNamed }),
    ...opts.routers,
  ];
  for (const h of handlers) app.use(h);
  // Anything no router claimed: a 404 in the shape of the path's format.
  app.use((req, res) => {
    sendError(
      res,
      new GatewayError('not_found', `No route for ${req.method} ${req.path.slice(0, 200)}.`, { code: 'route_not_found' }),
      rendererForUnroutedPath(req.path, req),
    );
  });
  const lastResort: ErrorRequestHandler = (e, req, res, _next) => sendError(res, e, rendererForUnroutedPath(req.path, req));
  app.use(lastResort);
  // the hot routes from one map, through the same handlers and ahead of express's router (issue 40); the rest as above
  serveFastFirst(app, fastRoutes(handlers), lastResort);
  return app;
}
