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
