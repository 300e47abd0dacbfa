import type { Request, Response } from 'express';
import { GatewayError } from '@gateway/core';
import { routeOf } from '@gateway/http-kit';
import type { GatewayMetrics } from './metrics';

/** What /readyz answers: ready only when requests, media work included, can succeed. */
export interface Readiness {
  ready: boolean;
  /** each dependency: ok, or what is wrong with it */
  checks: Record<string, string>;
}

export interface ProbeDeps {
  ready: () => Promise<Readiness>;
}

export interface OperationsDeps {
  metrics: Pick<GatewayMetrics, 'scrape' | 'registry'>;
  /**
   * The admin API's own gate (wire-admin's adminKeyGate: the admin key, the CLI's token, a platform admin's
   * session); absent when /metrics is open (METRICS_PUBLIC=true, or no GATEWAY_ADMIN_KEY)
   */
  metricsGate?: (req: Request, res: Response) => unknown;
  /** the OpenAPI document's text for this request's base URL (the server builds it from every route's declaration) */
  openApiText(req: Request): string;
}

/** The probes: the server's app answers them before any router, so they are neither counted nor logged. */
export const probeRoutes = [
  routeOf<ProbeDeps>()({
    method: 'get',
    path: '/healthz',
    summary: 'Liveness',
    format: 'operations',
    auth: { kind: 'none', why: 'Probes run without credentials.' },
    response: {
      description: 'The process answers.',
      content: { 'application/json': { type: 'object', required: ['status'], properties: { status: { const: 'ok' } } } },
    },
    handle(_ctx, _req, res) {
      res.json({ status: 'ok' });
    },
  }),
  routeOf<ProbeDeps>()({
    method: 'get',
    path: '/readyz',
    summary: 'Readiness',
    description:
      '503 with `{"status":"not_ready"}` while the database does not answer or is not migrated, DATA_DIR cannot be written, or Redis is down with RATE_LIMIT_ON_REDIS_ERROR=closed; 200 `degraded` while Redis is down with the policy open. `checks` names each dependency\'s state.',
    format: 'operations',
    auth: { kind: 'none', why: 'Probes run without credentials.' },
    response: {
      description: 'Ready to serve.',
      content: {
        'application/json': {
          type: 'object',
          required: ['status'],
          properties: {
            status: { enum: ['ready', 'degraded', 'not_ready'] },
            checks: { type: 'object', additionalProperties: { type: 'string' } },
          },
        },
      },
    },
    async handle({ deps }, _req, res) {
      const r = await deps.ready().catch(() => ({ ready: false, checks: {} }) as Readiness);
      const degraded = Object.values(r.checks).some((c) => c !== 'ok');
      res.status(r.ready ? 200 : 503).json({ status: r.ready ? (degraded ? 'degraded' : 'ready') : 'not_ready', checks: r.checks });
    },
  }),
];

const route = routeOf<OperationsDeps>();

/** What operators and callers use to see what happened: /metrics and /openapi.json. */
export const operationsRoutes = [
  route({
    method: 'get',
    path: '/metrics',
    summary: 'Prometheus metrics',
    description: 'Needs the admin key as a bearer token when GATEWAY_ADMIN_KEY is set, unless METRICS_PUBLIC=true.',
    format: 'operations',
    auth: { kind: 'admin-key', optional: true },
    response: { description: 'The Prometheus text exposition.', content: { 'text/plain': { type: 'string' } } },
    errors: 'openai',
    async handle({ deps }, req, res) {
      // optional admin key: METRICS_PUBLIC or no admin key opens the route; otherwise the admin API's gate decides
      deps.metricsGate?.(req, res);
      let text: string;
      try {
        text = await deps.metrics.scrape();
      } catch {
        // WORKERS > 1: the cluster's primary did not answer in time
        throw new GatewayError('upstream_unavailable', 'The metrics could not be gathered from every worker; retry.', {
          code: 'metrics_unavailable',
        });
      }
      res.setHeader('Content-Type', deps.metrics.registry.contentType);
      res.send(text);
    },
  }),
  route({
    method: 'get',
    path: '/openapi.json',
    summary: 'This OpenAPI document',
    description: "Generated at start from the route descriptions of every wire package; request schemas are the validators' own.",
    format: 'operations',
    auth: { kind: 'none', why: 'The API description is public.' },
    response: { description: 'OpenAPI 3.1.', content: { 'application/json': { type: 'object', required: ['openapi', 'paths'] } } },
    // The API description is public, like the docs it is generated from.
    handle({ deps }, req, res) {
      res.type('application/json').send(deps.openApiText(req));
    },
  }),
];
