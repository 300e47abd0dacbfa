import type { Request, RequestHandler, Response } from 'express';
import type { ErrorReason, UsageRow } from '@gateway/core';
import type { ObservabilityLogger } from './observability-logger';
import type { RequestState } from '@gateway/http-kit';

/** What a request's usage row says about it, once the router recorded one. */
export type UsageFacts = Pick<UsageRow, 'format' | 'model' | 'provider' | 'attempts'>;

/** A caller that went away before the answer was complete: nginx's convention, not a server error. */
export const CLIENT_CLOSED = 499;

/**
 * Usage rows of the requests still open, by request id, so each request's one log line and one count can say which
 * model and provider served it. Rows of requests not open here (a task finishing later) are not kept.
 */
export class OpenRequests {
  private readonly open = new Map<string, { facts: UsageFacts | null; waiting?: (f: UsageFacts) => void; locals?: RequestState }>();

  /** `locals`: the response's, where auth leaves the caller's principal (for log lines written during the request) */
  begin(id: string, locals?: RequestState): void {
    this.open.set(id, { facts: null, locals });
  }

  /** The account and key of an open request, once auth has run: what its log lines name. */
  caller(id: string): { account?: string; key?: string } {
    const p = this.open.get(id)?.locals?.principal;
    return p ? { account: p.accountId, key: p.keyId } : {};
  }

  noteUsage(row: UsageRow): void {
    const entry = this.open.get(row.requestId);
    if (!entry) return;
    entry.facts = row;
    entry.waiting?.(row);
  }

  /**
   * The request's facts once it has closed. An answer that completed recorded its row before its last byte: its facts
   * come at once, with no promise. An abandoned one records its row as its upstream call unwinds, a moment later, so
   * that one is waited for (bounded).
   */
  end(id: string, abandoned: boolean, waitMs = 1000): UsageFacts | null | Promise<UsageFacts | null> {
    const entry = this.open.get(id);
    if (entry && !entry.facts && abandoned) {
      return new Promise<UsageFacts | null>((resolve) => {
        const done = () => {
          this.open.delete(id);
          resolve(entry.facts ?? null);
        };
        const timer = setTimeout(done, waitMs);
        entry.waiting = () => {
          clearTimeout(timer);
          done();
        };
      });
    }
    this.open.delete(id);
    return entry?.facts ?? null;
  }
}

export interface FinishedRequest {
  status: number;
  /** the usage row's format, else the format whose route the path is, else "none" (no route claimed it) */
  format: string;
  facts: UsageFacts | null;
  latencyMs: number;
  /** the failure reason the error middleware answered with, if any */
  reason?: ErrorReason;
}

/** The status a request really ended with: 499 when the response never completed because the caller left. */
function finalStatus(res: Response): number {
  return res.writableFinished ? res.statusCode : CLIENT_CLOSED;
}

/**
 * One observation per request, whatever answered it (a refusal in auth, a rate limit, a 503, a 404): counted and
 * logged once with method, full path, status, model, provider, attempts, latency and request id, then handed to
 * `finished` (the request count; the trace's server span, ended after every attempt span under it).
 */
export function observeRequests(
  open: OpenRequests,
  logger: ObservabilityLogger,
  finished: (req: Request, res: Response, r: FinishedRequest) => void,
  formatOf: (method: string, path: string) => string,
): RequestHandler {
  return (req, res, next) => {
    const id = String(res.locals.requestId ?? '');
    const started = process.hrtime.bigint();
    open.begin(id, res.locals);
    res.once('close', () => {
      // a router records its usage row as it answers; the row may land in the same tick as the close
      const status = finalStatus(res);
      const observe = (facts: UsageFacts | null) => {
        const path = req.originalUrl.split('?')[0] ?? '';
        const format = facts?.format ?? formatOf(req.method, path);
        const reason = res.locals.errorReason;
        const r = { status, format, facts, latencyMs: Number(process.hrtime.bigint() - started) / 1e6, reason };
        finished(req, res, r);
        const principal = res.locals.principal ?? res.locals.refusedPrincipal;
        const fields = {
          requestId: id,
          method: req.method,
          path: path.slice(0, 512),
          status: r.status,
          format,
          // a refusal before routing (a rate limit, a model outside the group) names the model asked for
          model: facts?.model ?? requestedModel(req, path) ?? res.locals.requestedModel,
          provider: facts?.provider ?? undefined,
          attempts: facts?.attempts ?? undefined,
          latencyMs: Math.round(r.latencyMs * 10) / 10,
          account: principal?.accountId,
          key: principal?.keyId,
          errorCode: res.locals.errorCode,
        };
        if (res.locals.internalError) {
          const e = res.locals.internalError as Error;
          // the store or Redis gone: its watcher logs the outage once; each request caught by it is a line, no stack
          if (isConnectionFailure(e)) logger.warn('request failed: a dependency is unreachable', { ...fields, error: e?.message });
          else logger.error('request failed', { ...fields, error: e?.message, stack: e?.stack });
        } else logger.info('request', fields);
      };
      // a failure to observe (a metric, the log) is logged, never an unhandled rejection that ends the process
      const failed = (e: unknown) => logger.error('request observation failed', { requestId: id, error: String(e) });
      afterThisTurn(() => {
        try {
          const facts = open.end(id, status === CLIENT_CLOSED);
          if (facts instanceof Promise) facts.then(observe).catch(failed);
          else observe(facts);
        } catch (e) {
          failed(e);
        }
      });
    });
    next();
  };
}

const CONNECTION_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENOTFOUND', '57P01']);

/** A failure to reach PostgreSQL or Redis (not a bug): node's socket errors, pg's and knex's words for a lost connection. */
export function isConnectionFailure(e: unknown): boolean {
  const err = e as { code?: unknown; message?: unknown } | undefined;
  if (typeof err?.code === 'string' && CONNECTION_CODES.has(err.code)) return true;
  return /Connection terminated|Connection ended|Timeout acquiring a connection|Connection is closed/i.test(String(err?.message ?? ''));
}

/** The model a request asked for: the body's `model`, or the Gemini path's `models/{model}:…`. */
function requestedModel(req: Request, path: string): string | undefined {
  const body = req.body as { model?: unknown } | undefined;
  const named = typeof body?.model === 'string' ? body.model : /\/models\/([^/:]+)/.exec(path)?.[1];
  return named ? named.slice(0, 200) : undefined;
}

/**
 * Runs `fn` in the check phase after this event-loop turn, like setImmediate, but every call of one turn shares one
 * immediate (under load one turn ends many requests): what one turn queued runs in order; what they queue runs next.
 */
let queued: Array<() => void> = [];
function afterThisTurn(fn: () => void): void {
  if (queued.push(fn) > 1) return;
  setImmediate(() => {
    const now = queued;
    queued = [];
    for (const f of now) f();
  });
}
