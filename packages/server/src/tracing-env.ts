import type { SpanExporter } from '@opentelemetry/sdk-trace-base';
import type { Logger } from './logger';
import { StartupError } from './startup-checks';
import type { Tracing } from './tracing';

/** Where traces go, read from the standard OpenTelemetry variables; absent when tracing is off (the default). */
export interface TracingEnv {
  /** the OTLP/HTTP traces URL: OTEL_EXPORTER_OTLP_TRACES_ENDPOINT as given, else OTEL_EXPORTER_OTLP_ENDPOINT + /v1/traces */
  tracesUrl: string;
  /** OTEL_SERVICE_NAME, default generation-gateway */
  serviceName: string;
}

export const DEFAULT_SERVICE_NAME = 'generation-gateway';

export function tracingFromEnv(e: NodeJS.ProcessEnv): TracingEnv | undefined {
  if (e.OTEL_SDK_DISABLED?.trim().toLowerCase() === 'true') return undefined;
  const signal = e.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim();
  const base = e.OTEL_EXPORTER_OTLP_ENDPOINT?.trim();
  // The specification's rule: the per-signal variable is the full URL, the base one gets the signal's path.
  const tracesUrl = signal || (base ? `${base.replace(/\/+$/, '')}/v1/traces` : undefined);
  if (!tracesUrl) return undefined;
  return { tracesUrl, serviceName: e.OTEL_SERVICE_NAME?.trim() || DEFAULT_SERVICE_NAME };
}

/** Tracing when configured (or a test's exporter given): the OpenTelemetry SDK is loaded only then. */
export async function tracingIfConfigured(
  env: TracingEnv | undefined,
  exporter: SpanExporter | undefined,
  providers: { typeOf(id: string): string | undefined },
  logger: Logger,
): Promise<Tracing | undefined> {
  if (!env && !exporter) return undefined;
  if (env) logger.info('tracing on', { tracesUrl: loggableTracesUrl(env.tracesUrl), serviceName: env.serviceName });
  const { startTracing } = await import('./tracing');
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
