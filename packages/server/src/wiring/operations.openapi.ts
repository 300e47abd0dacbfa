import type { RouteDoc } from '@gateway/http-kit';

/** The server's own routes: probes (app.ts), /metrics and /openapi.json (operations.ts). */
export const operationsRoutes: RouteDoc[] = [
  {
    method: 'get',
    path: '/healthz',
    summary: 'Liveness',
    format: 'operations',
    auth: { kind: 'none', why: 'Probes run without credentials.' },
    response: {
      description: 'The process answers.',
      content: { 'application/json': { type: 'object', required: ['status'], properties: { status: { const: 'ok' } } } },
    },
  },
  {
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
  },
  {
    method: 'get',
    path: '/metrics',
    summary: 'Prometheus metrics',
    description: 'Needs the admin key as a bearer token when GATEWAY_ADMIN_KEY is set, unless METRICS_PUBLIC=true.',
    format: 'operations',
    auth: { kind: 'admin-key', optional: true },
    response: { description: 'The Prometheus text exposition.', content: { 'text/plain': { type: 'string' } } },
    errors: 'openai',
  },
  {
    method: 'get',
    path: '/openapi.json',
    summary: 'This OpenAPI document',
    description: "Generated at start from the route descriptions of every wire package; request schemas are the validators' own.",
    format: 'operations',
    auth: { kind: 'none', why: 'The API description is public.' },
    response: { description: 'OpenAPI 3.1.', content: { 'application/json': { type: 'object', required: ['openapi', 'paths'] } } },
  },
];
