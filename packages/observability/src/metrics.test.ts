import type { TaskStatistics } from '@gateway/core';
import { GatewayMetrics } from './metrics';

describe('GatewayMetrics routing observer', () => {
  it('counts each attempt by provider, model and outcome, and counts and warns on breaker transitions', async () => {
    const lines: Array<Record<string, unknown>> = [];
    const log = (level: string) => (message: string, meta: Record<string, unknown>) => lines.push({ level, message, ...meta });
    // only the counters are read here: the store-backed gauges are never collected
    const metrics = new GatewayMetrics({} as TaskStatistics);
    const observer = metrics.routingObserver({ info: log('info'), warn: log('warn'), error: log('error') });
    observer.attempt({ provider: 'primary', upstreamModel: 'gpt-x', outcome: 'upstream_unavailable', upstreamStatus: 503, durationMs: 5 });
    observer.attempt({ provider: 'secondary', upstreamModel: 'claude-y', outcome: 'ok', durationMs: 7 });
    observer.breakerChanged({ provider: 'primary', upstreamModel: 'gpt-x', from: 'closed', to: 'open' });
    const attempts = await metrics.registry.getSingleMetricAsString('gateway_upstream_attempts_total');
    expect(attempts).toContain('gateway_upstream_attempts_total{provider="primary",model="gpt-x",outcome="upstream_unavailable"} 1');
    expect(attempts).toContain('gateway_upstream_attempts_total{provider="secondary",model="claude-y",outcome="ok"} 1');
    expect(await metrics.registry.getSingleMetricAsString('gateway_circuit_transitions_total')).toContain(
      'gateway_circuit_transitions_total{provider="primary",upstream_model="gpt-x",to="open"} 1',
    );
    expect(lines).toEqual([
      expect.objectContaining({ level: 'warn', message: 'upstream attempt failed', provider: 'primary', upstreamStatus: 503 }),
      expect.objectContaining({ level: 'warn', message: 'circuit breaker changed', from: 'closed', to: 'open' }),
    ]);
  });
});
