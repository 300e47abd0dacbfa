import express, { type ErrorRequestHandler, type Express, type Request, type RequestHandler } from 'express';
import { GatewayError } from '@gateway/core';
import {
  renderAnthropicError,
  renderCodeMessageError,
  renderGoogleError,
  renderOpenAiError,
  requestId,
  sendError,
  type ErrorRenderer,
} from '@gateway/http-kit';
import type { Logger } from './logger';

export interface HttpAppOptions {
  logger: Logger;
  /** wire routers, mounted in order at the root */
  routers: RequestHandler[];
  ready: () => Promise<boolean>;
}

/** Logs one line per request: ids, status and timing; never keys, prompts or bodies. */
function accessLog(logger: Logger): RequestHandler {
  return (req, res, next) => {
    const started = process.hrtime.bigint();
    res.on('close', () => {
      const p = res.locals.principal as { accountId?: string } | undefined;
      const fields = {
        requestId: res.locals.requestId,
        method: req.method,
        // the full path even when a mounted router failed (req.path is then relative); never the query (`?key=`)
        path: req.originalUrl.split('?')[0].slice(0, 256),
        status: res.statusCode,
        durationMs: Number(process.hrtime.bigint() - started) / 1e6,
        account: p?.accountId,
        errorCode: res.locals.errorCode,
      };
      if (res.locals.internalError) {
        const e = res.locals.internalError as Error;
        logger.error('request failed', { ...fields, error: e?.message, stack: e?.stack });
      } else logger.info('request', fields);
    });
    next();
  };
}

/**
 * The error shape a path's format promises, for failures no router claimed. `/v1/models` answers in Anthropic's
 * shape when the request carries `anthropic-version` (as its router does), so pass the request when there is one.
 */
export function rendererForPath(path: string, req?: Pick<Request, 'header'>): ErrorRenderer {
  if (
    path.startsWith('/v1/contents/generations/tasks') ||
    path.startsWith('/v1beta/files/') ||
    /^\/v1beta\/models\/[^/]*(:predictLongRunning$|\/operations\/)/.test(path)
  )
    return renderCodeMessageError;
  if (path.startsWith('/v1beta/')) return renderGoogleError;
  if (path.startsWith('/v1/messages')) return renderAnthropicError;
  if (/^\/v1\/models(\/|$)/.test(path) && req?.header('anthropic-version') !== undefined) return renderAnthropicError;
  return renderOpenAiError;
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
      rendererForPath(req.path, req),
    );
  }
  if (decoded.includes('\u0000'))
    return sendError(
      res,
      new GatewayError('invalid_request', 'The URL contains a NUL character.', { code: 'nul_character' }),
      rendererForPath(req.path, req),
    );
  next();
};

export function createHttpApp(opts: HttpAppOptions): Express {
  const app = express();
  app.disable('x-powered-by');
  app.disable('etag');
  app.set('query parser', 'extended');
  app.use(requestId);
  app.use(accessLog(opts.logger));
  app.use(rejectHostileUrl);
  app.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });
  app.get('/readyz', async (_req, res) => {
    const ok = await opts.ready().catch(() => false);
    res.status(ok ? 200 : 503).json({ status: ok ? 'ready' : 'not_ready' });
  });
  for (const r of opts.routers) app.use(r);
  // Anything no router claimed: a 404 in the shape of the path's format.
  app.use((req, res) => {
    sendError(
      res,
      new GatewayError('not_found', `No route for ${req.method} ${req.path.slice(0, 200)}.`, { code: 'route_not_found' }),
      rendererForPath(req.path, req),
    );
  });
  app.use(((e, req, res, _next) => sendError(res, e, rendererForPath(req.path, req))) as ErrorRequestHandler);
  return app;
}
