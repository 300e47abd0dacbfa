/**
 * OpenTelemetry traces, loaded only when OTEL_EXPORTER_OTLP_ENDPOINT (or the traces one) is set: gateway.ts imports
 * this module lazily, so a gateway without tracing neither loads the SDK nor does any per-request work for it.
 */
import type { Request, RequestHandler, Response } from 'express';
import {
  context,
  propagation,
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  trace,
  type ProxyTracerProvider,
  type Span,
} from '@opentelemetry/api';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BatchSpanProcessor, NodeTracerProvider, SimpleSpanProcessor, type SpanExporter } from '@opentelemetry/sdk-trace-node';
import {
  ATTR_ERROR_TYPE,
  ATTR_HTTP_REQUEST_METHOD,
  ATTR_HTTP_RESPONSE_STATUS_CODE,
  ATTR_HTTP_ROUTE,
  ATTR_SERVICE_NAME,
  ATTR_URL_PATH,
} from '@opentelemetry/semantic-conventions';
import type { RoutingObserver } from '@gateway/core';
import type { FinishedRequest } from './request-observer';
import { DEFAULT_SERVICE_NAME, type TracingEnv } from './tracing-env';
import { attemptAttributes, attemptFailed } from './tracing-attributes';

export interface Tracing {
  /** opens the request's server span, continuing an incoming W3C traceparent */
  middleware: RequestHandler;
  /** closes it, called by the request observer once the request's facts are in (after its attempts ended) */
  requestFinished(req: Request, res: Response, r: FinishedRequest): void;
  /** one client span per upstream attempt, under its request's server span */
  observer: RoutingObserver;
  /** exports what is buffered and unregisters the global provider */
  shutdown(): Promise<void>;
}

export interface TracingOptions {
  env?: TracingEnv;
  /** tests: spans go here (exported one by one) instead of to OTLP/HTTP in batches */
  exporter?: SpanExporter;
  /** a configured provider's type (openai, google, ...), for gen_ai.provider.name */
  providerType?: (providerId: string) => string | undefined;
}

const nowMs = () => performance.timeOrigin + performance.now();

export function startTracing(opts: TracingOptions): Tracing {
  const exporter = opts.exporter ?? new OTLPTraceExporter({ url: opts.env?.tracesUrl });
  const provider = new NodeTracerProvider({
    resource: resourceFromAttributes({ [ATTR_SERVICE_NAME]: opts.env?.serviceName ?? DEFAULT_SERVICE_NAME }),
    spanProcessors: [opts.exporter ? new SimpleSpanProcessor(exporter) : new BatchSpanProcessor(exporter)],
  });
  // Global, so code using the OpenTelemetry API sees it: W3C trace context, AsyncLocalStorage context.
  provider.register();
  // Another provider may hold the global slot (two gateways in one process): then only this one's own spans are ours.
  const owned = (trace.getTracerProvider() as ProxyTracerProvider).getDelegate() === provider;
  const tracer = provider.getTracer('generation-gateway');
  // Server spans of the open requests by request id: attempts find their parent here, whatever async context they run in.
  const open = new Map<string, { span: Span; startedAt: number }>();

  return {
    middleware(req, res, next) {
      const id = String(res.locals.requestId ?? '');
      const parent = propagation.extract(ROOT_CONTEXT, req.headers);
      const startedAt = nowMs();
      const span = tracer.startSpan(
        req.method,
        {
          kind: SpanKind.SERVER,
          startTime: startedAt,
          attributes: {
            [ATTR_HTTP_REQUEST_METHOD]: req.method,
            // never the query: Gemini callers may put their key there
            [ATTR_URL_PATH]: (req.originalUrl.split('?')[0] ?? '').slice(0, 512),
            'gateway.request_id': id,
          },
        },
        parent,
      );
      // An id a client reuses concurrently keeps its first span; the later request's attempts join that trace.
      if (!open.has(id)) open.set(id, { span, startedAt });
      context.with(trace.setSpan(parent, span), next);
    },

    requestFinished(req, res, r) {
      const id = String(res.locals.requestId ?? '');
      const entry = open.get(id);
      if (!entry) return;
      open.delete(id);
      const { span, startedAt } = entry;
      const route = routeOf(req);
      if (route) {
        span.updateName(`${req.method} ${route}`);
        span.setAttribute(ATTR_HTTP_ROUTE, route);
      }
      span.setAttribute(ATTR_HTTP_RESPONSE_STATUS_CODE, r.status);
      if (r.facts?.model) span.setAttribute('gateway.model', r.facts.model);
      if (r.facts?.provider) span.setAttribute('gateway.provider', r.facts.provider);
      if (r.facts?.attempts !== undefined) span.setAttribute('gateway.attempts', r.facts.attempts);
      // A server span is an error for 5xx only: 4xx answers (and 499, a caller who left) are the caller's doing.
      if (r.status >= 500) {
        span.setStatus({ code: SpanStatusCode.ERROR });
        span.setAttribute(ATTR_ERROR_TYPE, String(r.status));
      }
      span.end(startedAt + r.latencyMs);
    },

    observer: {
      attempt(a) {
        if (!a.call) return;
        const parent = open.get(a.call.requestId)?.span;
        const endedAt = nowMs();
        const span = tracer.startSpan(
          `${a.call.operation} ${a.upstreamModel}`,
          { kind: SpanKind.CLIENT, startTime: endedAt - a.durationMs, attributes: attemptAttributes(a, opts.providerType?.(a.provider)) },
          parent ? trace.setSpan(ROOT_CONTEXT, parent) : ROOT_CONTEXT,
        );
        if (attemptFailed(a)) span.setStatus({ code: SpanStatusCode.ERROR, message: a.outcome });
        span.end(endedAt);
      },
      breakerChanged() {
        // counted and logged by the metrics observer; a transition belongs to no one request's trace
      },
    },

    async shutdown() {
      for (const { span } of open.values()) span.end();
      open.clear();
      await provider.shutdown();
      if (owned) {
        trace.disable();
        context.disable();
        propagation.disable();
      }
    },
  };
}

/** The matched route's template (`/v1/videos/:id`), when a router matched one. */
function routeOf(req: Request): string | undefined {
  const path: unknown = req.route?.path;
  return typeof path === 'string' ? `${req.baseUrl ?? ''}${path}` : undefined;
}
