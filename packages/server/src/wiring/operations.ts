import { mountRoutes } from '@gateway/http-kit';
import { operationsRoutes } from '@gateway/observability';
import { adminKeyGate } from '@gateway/wire-admin';
import { openApiText } from '../openapi';
import { publicBaseUrlFor } from '../public-links';
import { errorShapeNamed } from '../wire-formats';
import type { AreaWiring, WiringContext } from './context';

/** What operators and callers use to see what happened: the usage query (for the usage format), /metrics and /openapi.json. */
export function wireOperations(ctx: WiringContext) {
  const deps = {
    metrics: ctx.metrics,
    metricsGate: ctx.env.adminKey && !ctx.env.metricsPublic ? adminKeyGate(ctx.env.adminKey) : undefined,
    openApiText: openApiText(publicBaseUrlFor(ctx.env)),
  };
  const routers = [mountRoutes(operationsRoutes, deps, { errorShape: errorShapeNamed })];
  return { services: { usageQuery: ctx.stores.usageQuery }, routers } satisfies AreaWiring;
}
