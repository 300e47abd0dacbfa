import { tracingFromEnv } from './tracing-env';
import { attemptAttributes, genAiProviderName } from './tracing-attributes';

describe('tracingFromEnv', () => {
  it('is off without an endpoint', () => {
    expect(tracingFromEnv({})).toBeUndefined();
    expect(tracingFromEnv({ OTEL_SERVICE_NAME: 'x', OTEL_EXPORTER_OTLP_ENDPOINT: ' ' })).toBeUndefined();
  });

  it('appends /v1/traces to the base endpoint and names the service generation-gateway by default', () => {
    expect(tracingFromEnv({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318/' })).toEqual({
      tracesUrl: 'http://collector:4318/v1/traces',
      serviceName: 'generation-gateway',
    });
  });

  it('takes the traces endpoint as given, and OTEL_SERVICE_NAME', () => {
    expect(
      tracingFromEnv({
        OTEL_EXPORTER_OTLP_ENDPOINT: 'http://ignored:4318',
        OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'https://otel.example/custom',
        OTEL_SERVICE_NAME: 'gw-eu',
      }),
    ).toEqual({ tracesUrl: 'https://otel.example/custom', serviceName: 'gw-eu' });
  });

  it('OTEL_SDK_DISABLED=true turns it off', () => {
    expect(tracingFromEnv({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318', OTEL_SDK_DISABLED: 'true' })).toBeUndefined();
  });
});

describe('attempt attributes', () => {
  it('name the provider by its GenAI name where one differs from the type', () => {
    expect(genAiProviderName('google', 'gemini-eu')).toBe('gcp.gemini');
    expect(genAiProviderName('anthropic', 'claude')).toBe('anthropic');
    expect(genAiProviderName(undefined, 'removed-provider')).toBe('removed-provider');
  });

  it('a cancelled attempt (the caller left) is no error; a failed one has error.type', () => {
    const base = { provider: 'p', upstreamModel: 'm', durationMs: 3, call: { requestId: 'r', operation: 'chat', model: 'g' } };
    expect(attemptAttributes({ ...base, outcome: 'cancelled' }, 'openai')['error.type']).toBeUndefined();
    expect(attemptAttributes({ ...base, outcome: 'upstream_timeout' }, 'openai')).toMatchObject({
      'error.type': 'upstream_timeout',
      'gen_ai.operation.name': 'chat',
      'gateway.model': 'g',
    });
  });
});
