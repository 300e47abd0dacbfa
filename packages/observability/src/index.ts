// The public surface of observability: what the composition root wires.
import type { startTracing } from './tracing';

export { ClusterMetrics } from './cluster-metrics';
export { GatewayMetrics } from './metrics';
export { observeRequests } from './request-observer';
export { operationsRoutes, probeRoutes, type Readiness } from './operations.router';
export { tracingFromEnv, type TracingEnv } from './tracing-env';
export type { Tracing } from './tracing';

/** The tracer, loaded on first use: the OpenTelemetry SDK stays out of a gateway that does not trace. */
export async function loadTracing(): Promise<typeof startTracing> {
  return (await import('./tracing')).startTracing;
}
export { createAnnouncer, createLogger, type Logger, routeConsoleToLogger } from './logger';
