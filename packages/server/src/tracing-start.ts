import type { SpanExporter } from '@opentelemetry/sdk-trace-base';
import { loadTracing, type Tracing, type TracingEnv } from '@gateway/observability';
import type { Logger } from '@gateway/observability';
import { StartupError } from './startup-checks';

/** Tracing when configured (or a test's exporter given): the OpenTelemetry SDK is loaded only then. */
export async function tracingIfConfigured(
  env: TracingEnv | undefined,
  exporter: SpanExporter | undefined,
  providers: { typeOf(id: string): string | undefined },
  logger: Logger,
): Promise<Tracing | undefined> {
  if (!env && !exporter) return undefined;
  if (env) logger.info('tracing on', { tracesUrl: loggableTracesUrl(env.tracesUrl), serviceName: env.serviceName });
  const startTracing = await loadTracing();
  return startTracing({ env, exporter, providerType: (id) => providers.typeOf(id) });
}

/** The traces URL fit for a log line (user info dropped); one that is not http(s) stops start-up. */
function loggableTracesUrl(url: string): string {
  const u = URL.canParse(url) ? new URL(url) : undefined;
  if (!u || !/^https?:$/.test(u.protocol))
    throw new StartupError(
      'OTEL_EXPORTER_OTLP_ENDPOINT is not an http(s) URL: OTLP/HTTP is the exporter this build has.',
      'bad_otlp_endpoint',
    );
  u.username = '';
  u.password = '';
  return u.toString();
}
